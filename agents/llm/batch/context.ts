/**
 * Which turn a model call belongs to, carried through LangGraph and LangChain to the batch's `fetch`
 * (`AsyncLocalStorage`): the host starts a context per turn, the gate writes the request's cache
 * key into it when the caller claims the key, and the fetch that ChatOpenAI calls reads it as the
 * request's custom id. One turn makes one model call (retries reuse its key), so nothing is shared.
 */
import { AsyncLocalStorage } from "node:async_hooks";

export interface TurnContext {
  /** The agent entry's label, recorded with the request (batch accounting per agent). */
  agent: string;
  /** The response-cache key of the turn's model call, once the caller has claimed it. */
  key?: string;
}

export const turnContext = new AsyncLocalStorage<TurnContext>();
