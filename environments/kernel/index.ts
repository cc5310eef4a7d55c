/** The kernel: what every package stands on, importing nothing of bazaar above it. */
export type { AnyEnvironment, EnvironmentDef } from "./environment.ts";
export {
  type EpisodeEvent,
  EpisodeFailed,
  type EpisodeObserver,
  type EpisodeResult,
  openingTurn,
  runEpisode,
  type Turn,
  type TurnEvent,
} from "./episode.ts";
export {
  BazaarBug,
  formatProblem,
  InvalidFileError,
  isBazaarBug,
  type Problem,
  UserError,
} from "./errors.ts";
export { AgentFailure, type FailureKind, type FailureRecord, failureOf } from "./failures.ts";
export { canonicalJson, sha256Hex, stableHash } from "./hash.ts";
export { ceilCents, floorCents, formatUsd, roundCents, samePrice } from "./money.ts";
export type { CachedResponse, CacheStats, ResponseCache } from "./response-cache.ts";
export { createRng, type Rng } from "./rng.ts";
export {
  type CallResult,
  GET_TASK_TOOL,
  type SurfaceHooks,
  type SurfaceTask,
  type SurfaceTool,
  surfaceOf,
  type ToolSurface,
  toolsOfActions,
} from "./surface.ts";
export {
  type Acted,
  type Agent,
  type AgentContext,
  type AgentEntry,
  type AgentHost,
  addUsage,
  emptyUsage,
  type HostAgents,
  type Message,
  MessageSchema,
  type NonResponse,
  NonResponseSchema,
  type Observation,
  type Usage,
  UsageSchema,
} from "./types.ts";
