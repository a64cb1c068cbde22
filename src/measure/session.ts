/**
 * Loading a session for measuring: the bundle, the set that rendered it, the
 * set's sources (for budgets) and the view its system prompt was rendered
 * from (for the parts of each section), as the service composes them.
 * Nothing is rendered twice.
 */
import { resolve } from "node:path";
import type { ContextBundle, LoadOptions } from "../service/bundle.js";
import { ContextService } from "../service/context-service.js";
import {
	compileTemplateSet,
	type TemplateSet,
	type TemplateSetSource,
} from "../templates/compile.js";
import { DEFAULT_TEMPLATES_DIR, readTemplateSets } from "../templates/load.js";
import { TemplateRegistry } from "../templates/registry.js";
import type { Tokenizer } from "../text/tokenizer.js";
import type { SystemView } from "../view/schema.js";
import { type ContextSize, measureContext } from "./measure.js";
import { Units } from "./units.js";

/** A service whose loads can be measured, with the sources of its sets. */
export class Measuring {
	readonly registry: TemplateRegistry;
	readonly service: ContextService;
	private sources: Map<string, TemplateSetSource> | undefined;

	constructor(
		options: {
			templates?: string;
			strict?: boolean;
			precompiled?: boolean;
			/** The sets as given (an editor's unsaved texts), instead of reading the folder. */
			sources?: ReadonlyMap<string, TemplateSetSource>;
		} = {},
	) {
		const dir =
			options.templates === undefined ? DEFAULT_TEMPLATES_DIR : resolve(options.templates);
		this.registry = new TemplateRegistry(dir, {
			compiler: compileTemplateSet,
			...(options.precompiled === undefined ? {} : { precompiled: options.precompiled }),
			...(options.sources === undefined ? {} : { sources: options.sources }),
		});
		if (options.sources !== undefined) this.sources = new Map(options.sources);
		this.service = new ContextService({
			registry: this.registry,
			...(options.strict === undefined ? {} : { strict: options.strict }),
		});
	}

	/** The sources of set `version`, read once. */
	source(version: string): TemplateSetSource | undefined {
		this.sources ??= readTemplateSets(this.registry.dir);
		return this.sources.get(version);
	}
}

export interface MeasuredSession {
	bundle: ContextBundle;
	set: TemplateSet;
	source: TemplateSetSource | undefined;
	view: SystemView;
	size: ContextSize;
}

/** A service whose loads can be measured with {@link measureLoaded}. */
export function measuringService(
	options: { templates?: string; strict?: boolean } = {},
): Measuring {
	return new Measuring(options);
}

/**
 * Loads `file` through a measuring service and measures it, parts and
 * budgets included, with `tokenizer` or in the units of the session's model
 * (the last one its branch names).
 */
export function measureLoaded(
	target: Measuring,
	file: string,
	tokenizer: Tokenizer | Units,
	options: LoadOptions = {},
): MeasuredSession {
	const { bundle, set, view } = target.service.composeSync(file, options);
	const source = target.source(set.version);
	const counter =
		tokenizer instanceof Units ? tokenizer.forModel(bundle.meta.model?.modelId) : tokenizer;
	const size = measureContext(bundle, set, counter, {
		...(source === undefined ? {} : { source }),
		view,
		convert: target.service.converter(bundle),
	});
	return { bundle, set, source, view, size };
}
