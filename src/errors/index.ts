export { formatProblem, InvalidFileError, type Problem, UserError } from "./user-error.ts";
