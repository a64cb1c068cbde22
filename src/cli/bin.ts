#!/usr/bin/env node
import { runMain } from "./main.js";

// Not awaited at the top level: this module is also bundled as CommonJS (dist/cli/bin.cjs).
void runMain();
