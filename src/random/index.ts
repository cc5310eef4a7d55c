export { createRng, type Rng } from "./rng.ts";
