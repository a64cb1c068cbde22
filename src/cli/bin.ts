#!/usr/bin/env node
import { fileURLToPath } from "node:url";
import { useCodeCache } from "./code-cache.js";
import { runMain } from "./main.js";

// The package's own CommonJS files start from the code V8 compiled when the package was built.
const root = (path: string) => fileURLToPath(new URL(path, import.meta.url));
useCodeCache([root("./"), root("../../templates/.compiled/")]);

// Not awaited at the top level: this module is also bundled as CommonJS (dist/cli/bin.cjs).
void runMain();
