export { type RunView, type RunViewOptions, startRunView } from "./live/run-view.ts";
export { plainAgentLine, plainEpisode, plainProgressLine, plainStats, plainSummary } from "./plain.ts";
export {
  ADAPTERS,
  adapterFor,
  type EpisodeModel,
  type EpisodeSummary,
  episodeModel,
  episodeSummary,
  type FilterFacet,
  type StatsView,
  type TrialRecord,
} from "./records/index.ts";
export {
  type ListItem,
  type PageResult,
  type ReplayFilter,
  type ReplaySource,
  type RunHeader,
  StoreReplaySource,
} from "./replay/source.ts";
export {
  type AgentRow,
  DashboardState,
  type DashboardView,
  type FeedItem,
  trialsPerAgent,
} from "./state/dashboard.ts";
export { initialReplay, type ReplayAction, type ReplayState, replayReducer } from "./state/replay.ts";
