/**
 * The layering of `src/`, read from the code: every import (static, dynamic
 * or type-only) points down the pipeline or stays in its folder, tools
 * never import one another, and no file imports itself through others.
 * The order is the one the README's Layout gives.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = resolve(import.meta.dirname, "../../src");

/** Each top-level part of `src/` and its layer: an import may only point to a lower one. */
const LAYERS: Record<string, number> = {
	"errors.ts": 0,
	// Making folders (what any layer that writes needs): node's file system alone.
	"folders.ts": 0,
	text: 1,
	log: 2,
	import: 3,
	session: 4,
	view: 5,
	templates: 6,
	render: 7,
	service: 8,
	measure: 9,
	// The rules of the build step that more than one tool holds a template set to (lock, budgets).
	rules: 10,
	// The tools: each may use everything below, none another.
	check: 11,
	serve: 11,
	preview: 11,
	replay: 11,
	lsp: 11,
	// Built on replay (its walk over the calls, its prices): above the tools, below the command line.
	eval: 12,
	cli: 13,
	"library.ts": 14,
	"index.ts": 15,
};

function sources(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
		const path = join(dir, e.name);
		if (e.isDirectory()) return e.name === "client" ? [] : sources(path);
		return e.name.endsWith(".ts") ? [path] : [];
	});
}

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["'](\.{1,2}\/[^"']+)["']/g;

/** The relative imports of each file under `src/`, as files under `src/`. */
function importGraph(): Map<string, string[]> {
	const graph = new Map<string, string[]>();
	for (const file of sources(SRC)) {
		const text = readFileSync(file, "utf8");
		const targets = [...text.matchAll(IMPORT)].map((m) =>
			relative(SRC, resolve(dirname(file), (m[1] as string).replace(/\.js$/, ".ts"))),
		);
		graph.set(relative(SRC, file), targets);
	}
	return graph;
}

function partOf(file: string): string {
	return file.split("/")[0] as string;
}

function layerOf(file: string): number {
	const layer = LAYERS[partOf(file)];
	if (layer === undefined)
		throw new Error(`src/${file}: its folder has no place in the layer order`);
	return layer;
}

/** Upward or sideways imports between parts, as `from -> to` lines. */
function violations(graph: Map<string, string[]>): string[] {
	const found: string[] = [];
	for (const [from, targets] of graph) {
		for (const to of targets) {
			if (partOf(from) === partOf(to)) continue;
			if (layerOf(to) >= layerOf(from)) found.push(`${from} -> ${to}`);
		}
	}
	return found;
}

/** One cycle of file imports, if any (depth-first, iterative). */
function cycle(graph: Map<string, string[]>): string[] | undefined {
	const state = new Map<string, "open" | "done">();
	for (const start of graph.keys()) {
		if (state.has(start)) continue;
		const stack: { file: string; next: number }[] = [{ file: start, next: 0 }];
		state.set(start, "open");
		while (stack.length > 0) {
			const top = stack[stack.length - 1] as { file: string; next: number };
			const targets = graph.get(top.file) ?? [];
			if (top.next === targets.length) {
				state.set(top.file, "done");
				stack.pop();
				continue;
			}
			const to = targets[top.next++] as string;
			if (state.get(to) === "open") {
				const from = stack.findIndex((f) => f.file === to);
				return [...stack.slice(from).map((f) => f.file), to];
			}
			if (!state.has(to) && graph.has(to)) {
				state.set(to, "open");
				stack.push({ file: to, next: 0 });
			}
		}
	}
	return undefined;
}

describe("the layering of src/", () => {
	const graph = importGraph();

	it("reads the imports it is about", () => {
		expect(graph.get("service/context-service.ts")).toContain("render/system-prompt.ts");
		expect(graph.get("cli/commands/index.ts")).toContain("cli/render.ts"); // a dynamic import
	});

	it("has every import pointing down the pipeline", () => {
		expect(violations(graph)).toEqual([]);
	});

	it("has no import cycle between files", () => {
		expect(cycle(graph)).toBeUndefined();
	});

	it("finds an upward import and a cycle when there is one", () => {
		const bad = new Map([
			["log/a.ts", ["render/b.ts"]],
			["render/b.ts", ["render/c.ts"]],
			["render/c.ts", ["render/b.ts"]],
		]);
		expect(violations(bad)).toEqual(["log/a.ts -> render/b.ts"]);
		expect(cycle(bad)).toEqual(["render/b.ts", "render/c.ts", "render/b.ts"]);
		expect(violations(new Map([["check/a.ts", ["preview/b.ts"]]]))).toHaveLength(1);
	});
});
