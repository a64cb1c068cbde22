/**
 * The template sets of one templates folder, read once and compiled once per
 * set, on first use, or loaded precompiled when the build left an up-to-date
 * module. Sessions pin a set by version; the default is the newest.
 */
import { resolve } from "node:path";
import { ContextError } from "../errors.js";
import {
	compileTemplateSet,
	fingerprintOf,
	type TemplateSet,
	type TemplateSetSource,
} from "./compile.js";
import { DEFAULT_TEMPLATES_DIR, readTemplateSets } from "./load.js";
import { loadPrecompiled, precompiledPath } from "./precompiled.js";

export class TemplateRegistry {
	private static readonly byDir = new Map<string, TemplateRegistry>();
	private sources: Map<string, TemplateSetSource> | undefined;
	private readonly compiled = new Map<string, TemplateSet>();

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
		options: { precompiled?: boolean } = {},
	) {
		this.precompiled = options.precompiled ?? resolve(dir) === DEFAULT_TEMPLATES_DIR;
	}

	/** The shared registry of a templates folder (default: the package's own): read once per process. */
	static for(dir: string = DEFAULT_TEMPLATES_DIR): TemplateRegistry {
		const key = resolve(dir);
		let registry = TemplateRegistry.byDir.get(key);
		if (registry === undefined) {
			registry = new TemplateRegistry(key);
			TemplateRegistry.byDir.set(key, registry);
		}
		return registry;
	}

	/** Every version in the folder, oldest first. */
	versions(): string[] {
		return [...this.read().keys()];
	}

	/** The compiled set `version`, or the newest when none is asked for. */
	get(version?: string): TemplateSet {
		const sources = this.read();
		const wanted = version ?? (this.versions().at(-1) as string);
		const cached = this.compiled.get(wanted);
		if (cached !== undefined) return cached;
		const source = sources.get(wanted);
		if (source === undefined) {
			throw new ContextError(
				"unknown_template_version",
				`no template set ${JSON.stringify(wanted)} (have: ${this.versions().join(", ")})`,
				{ file: this.dir },
			);
		}
		const precompiled = this.precompiled
			? loadPrecompiled(precompiledPath(this.dir, wanted), fingerprintOf(source))
			: undefined;
		const set = precompiled ?? compileTemplateSet(source);
		this.compiled.set(wanted, set);
		return set;
	}

	private read(): Map<string, TemplateSetSource> {
		this.sources ??= readTemplateSets(this.dir);
		return this.sources;
	}
}
