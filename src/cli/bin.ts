#!/usr/bin/env node
import { fileURLToPath } from "node:url";
import { codeCacheOptions, useCodeCache } from "./code-cache.js";
import { useCommandLineHeap } from "./heap.js";
import { runMain } from "./main.js";

// First: the young generation a command wants, and the flags the code caches were made under.
useCommandLineHeap();

// The CommonJS files a command runs start from the code V8 compiled when the package was built.
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
useCodeCache(codeCacheOptions(here("./"), here("../../")));

// Not awaited at the top level: this module is also bundled as CommonJS (dist/cli/bin.cjs).
void runMain();
