export { type BinaryLogitData, fitBinaryLogit } from "./binary.ts";
export { type ConditionalLogitData, fitConditionalLogit } from "./conditional.ts";
export { slotConstantNames, slotConstants, withIntercept } from "./design.ts";
export { predictBinaryProbabilities, predictProbabilities } from "./predict.ts";
export type {
  LogitCoefficient,
  LogitFit,
  LogitFitOk,
  LogitModelKind,
  LogitNotIdentified,
  LogitOptions,
  NotIdentifiedProblem,
} from "./types.ts";
