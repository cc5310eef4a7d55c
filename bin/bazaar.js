#!/usr/bin/env node
// The bazaar command. The sources are TypeScript, loaded through tsx so that `npm ci` is the whole
// installation: no build step, and what runs is exactly what the tests check.
import { register } from "tsx/esm/api";

register();
await import("../cli/main.ts");
