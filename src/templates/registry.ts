/**
 * The template sets of one templates folder, read once and compiled once per
 * set, on first use, or loaded precompiled when the build left an up-to-date
 * module. Sessions pin a set by version; the default is the newest.
 *
 * The compiler (front-matter, schemas, type checker, Handlebars' parser) is
 * a parameter: a registry given one compiles synchronously in {@link
 * TemplateRegistry.get}; one without loads it in {@link TemplateRegistry.ready}
 * only when a set has no fresh precompiled module, so the render path of
 * the precompiled sets never loads it.
 */

import { resolve } from "node:path";
import { ContextError } from "../errors.js";
import { nearest } from "../text/nearest.js";
import { DEFAULT_TEMPLATES_DIR, templateSets } from "./load.js";
import { loadPrecompiled, precompiledPath } from "./precompiled.js";
import type { TemplateSet, TemplateSetSource } from "./set.js";

/** Compiles a set from its sources (`compileTemplateSet` of `compile.ts`). */
export type Compiler = (source: TemplateSetSource) => TemplateSet;

export interface RegistryOptions {
	/** Whether precompiled modules are loaded (default: for the package's own folder only). */
	precompiled?: boolean;
	/** The compiler; without it, {@link TemplateRegistry.ready} loads it when a set needs it. */
	compiler?: Compiler;
	/** The sets as given (an editor's unsaved texts), instead of reading the folder. */
	sources?: ReadonlyMap<string, TemplateSetSource>;
}

export class TemplateRegistry {
	private static readonly byDir = new Map<string, TemplateRegistry>();
	/** Each set's sources, read on first use. */
	private sources: Map<string, () => TemplateSetSource> | undefined;
	private readonly compiled = new Map<string, TemplateSet>();
	private compiler: Compiler | undefined;

	/**
	 * Whether precompiled modules are loaded. They are JavaScript: by default
	 * only the package's own templates folder, as trusted as the package's
	 * code, is; any other folder is compiled from its sources, so that writing
	 * a templates folder never means running code.
	 */
	private readonly precompiled: boolean;

	/** A registry of its own (the shared one of a folder is {@link TemplateRegistry.for}). */
	constructor(
		readonly dir: string = DEFAULT_TEMPLATES_DIR,
		options: RegistryOptions = {},
	) {
		this.precompiled = options.precompiled ?? resolve(dir) === DEFAULT_TEMPLATES_DIR;
		this.compiler = options.compiler;
		if (options.sources !== undefined) {
			this.sources = new Map(
				[...options.sources].map(([version, source]) => [version, () => source]),
			);
		}
	}

	/**
	 * The shared registry of a templates folder (default: the package's own):
	 * read once per process. Given a `compiler`, it compiles with it from then on.
	 */
	static for(
		dir: string = DEFAULT_TEMPLATES_DIR,
		options: { compiler?: Compiler } = {},
	): TemplateRegistry {
		const key = resolve(dir);
		let registry = TemplateRegistry.byDir.get(key);
		if (registry === undefined) {
			registry = new TemplateRegistry(key);
			TemplateRegistry.byDir.set(key, registry);
		}
		registry.compiler ??= options.compiler;
		return registry;
	}

	/** Every version in the folder, oldest first. */
	versions(): string[] {
		return [...this.read().keys()];
	}

	/**
	 * Makes the sets `versions` (default: every set of the folder) available
	 * to {@link get}: loads each fresh precompiled set and, only if one is
	 * missing or stale, imports the compiler. A version the folder does not
	 * hold is left for {@link get} to refuse. Cheap once done.
	 */
	async ready(versions?: readonly string[]): Promise<void> {
		if (this.compiler !== undefined) return;
		const sources = this.read();
		for (const version of versions ?? sources.keys()) {
			const source = sources.get(version)?.();
			if (source === undefined || this.compiled.has(version)) continue;
			const set = this.loadFresh(version, source);
			if (set === undefined) {
				this.compiler = (await import("./compile.js")).compileTemplateSet;
				return;
			}
			this.compiled.set(version, set);
		}
	}

	/** The newest version in the folder: the default set. */
	newest(): string {
		return this.versions().at(-1) as string;
	}

	/** The compiled set `version`, or the newest when none is asked for. */
	get(version?: string): TemplateSet {
		const sources = this.read();
		const wanted = version ?? this.newest();
		const cached = this.compiled.get(wanted);
		if (cached !== undefined) return cached;
		const source = sources.get(wanted)?.();
		if (source === undefined) throw this.unknown(wanted);
		const set = this.loadFresh(wanted, source) ?? this.compile(source);
		this.compiled.set(wanted, set);
		return set;
	}

	/** Refuses a version the folder does not hold, as {@link get} would, without loading a set. */
	check(version: string): void {
		if (!this.read().has(version)) throw this.unknown(version);
	}

	private unknown(wanted: string): ContextError {
		return new ContextError(
			"unknown_template_version",
			`no template set ${JSON.stringify(wanted)}${setHint(wanted, this.versions())} (have: ${this.versions().join(", ")})`,
			{ file: this.dir },
		);
	}

	/** The precompiled set `version`, when allowed here and built from exactly `source`. */
	private loadFresh(version: string, source: TemplateSetSource): TemplateSet | undefined {
		if (!this.precompiled) return undefined;
		return loadPrecompiled(precompiledPath(this.dir, version), source);
	}

	private compile(source: TemplateSetSource): TemplateSet {
		if (this.compiler === undefined) {
			throw new ContextError(
				"internal",
				`template set ${source.version} has no fresh precompiled module and this registry has no compiler (pass one, or await registry.ready() first)`,
				{ file: source.dir },
			);
		}
		return this.compiler(source);
	}

	private read(): Map<string, () => TemplateSetSource> {
		if (this.sources === undefined) {
			const readers = templateSets(this.dir);
			// Each set is read once, when first needed.
			this.sources = new Map(
				[...readers].map(([version, read]) => {
					let source: TemplateSetSource | undefined;
					return [version, () => (source ??= read())];
				}),
			);
		}
		return this.sources;
	}
}

/**
 * "did you mean" for a set name: the set that differs only by its `v` or
 * its case (`2`, `V2` for `v2`), or the nearest one when the name is not a
 * set's kind of name at all (a newer `v9` is not a typo of `v2`).
 */
function setHint(wanted: string, versions: readonly string[]): string {
	const same = versions.find(
		(v) => v.toLowerCase() === `v${wanted.replace(/^v/i, "")}`.toLowerCase(),
	);
	const near = same ?? (/^v\d+$/.test(wanted) ? undefined : nearest(wanted, versions));
	return near === undefined ? "" : ` (did you mean ${near}?)`;
}
