export { type EpisodeEvent, type EpisodeResult, runEpisode, type Turn } from "./episode.ts";
export {
  type Acted,
  type Agent,
  type AgentContext,
  addUsage,
  emptyUsage,
  type Message,
  MessageSchema,
  type NonResponse,
  NonResponseSchema,
  type Observation,
  type Usage,
  UsageSchema,
} from "./types.ts";
