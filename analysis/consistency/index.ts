export {
  type AgentAudit,
  auditAgent,
  type ConsistencyOptions,
  DEFAULT_CONSISTENCY_OPTIONS,
  type GroupTest,
  type LocalSummary,
  type P2Summary,
} from "./audit.ts";
export {
  exceedTolerance,
  type FittedNullOptions,
  type FittedNullTest,
  fittedNullTest,
} from "./bootstrap.ts";
export {
  type AgentData,
  type ConsistencyRecord,
  ConsistencyRecordSchema,
  collectAgents,
  reasonCategory,
} from "./collect.ts";
export {
  applyResidualMaker,
  type FitQuery,
  fitUtilities,
  rootMeanSquare,
  type UtilityDesign,
  type UtilityFit,
  utilityDesign,
} from "./fit.ts";
export {
  indexGroup,
  itemResiduals,
  type LocalResidual,
  magnitudeLowerBound,
  type P2Residual,
  pathResiduals,
  queryStats,
  wald,
  zFor,
} from "./local.ts";
export { type PathLengthPoint, pathLengthCurve } from "./paths.ts";
export { untestableReason } from "./testable.ts";
export type { GroupData, Offer, QueryData, QueryStats, WaldEstimate } from "./types.ts";
export {
  decideGroups,
  type GroupDecision,
  type GroupOutcome,
  type GroupStatus,
  type JointVerdict,
  type VerdictStatus,
} from "./verdict.ts";
