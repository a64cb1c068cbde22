/**
 * Loading a session for measuring: the bundle, the set that rendered it, the
 * set's sources (for budgets) and the view its system prompt was rendered
 * from (for the parts of each section). The view is caught as the service
 * renders, through a registry that hands out the same sets with the system
 * render observed; nothing is rendered twice.
 */
import { resolve } from "node:path";
import { type ContextBundle, ContextService, type LoadOptions } from "../service.js";
import type { TemplateSet, TemplateSetSource } from "../templates/compile.js";
import { DEFAULT_TEMPLATES_DIR, readTemplateSets } from "../templates/load.js";
import { TemplateRegistry } from "../templates/registry.js";
import type { SystemView } from "../view/schema.js";
import { type ContextSize, measureContext } from "./measure.js";
import type { Tokenizer } from "./tokenizer.js";

/** A registry that remembers the last system view each of its sets rendered. */
export class ViewRecordingRegistry extends TemplateRegistry {
	private readonly wrapped = new Map<string, TemplateSet>();
	private sourceMap: Map<string, TemplateSetSource> | undefined;
	/** The view of the last system prompt rendered through this registry. */
	lastView: SystemView | undefined;

	override get(version?: string): TemplateSet {
		const set = super.get(version);
		let wrapped = this.wrapped.get(set.version);
		if (wrapped === undefined) {
			const system = set.render.system;
			wrapped = {
				...set,
				render: {
					...set.render,
					system: (view) => {
						this.lastView = view;
						return system(view);
					},
				},
			};
			this.wrapped.set(set.version, wrapped);
		}
		return wrapped;
	}

	/** The sources of set `version`, read once. */
	source(version: string): TemplateSetSource | undefined {
		this.sourceMap ??= readTemplateSets(this.dir);
		return this.sourceMap.get(version);
	}
}

export interface MeasuredSession {
	bundle: ContextBundle;
	set: TemplateSet;
	source: TemplateSetSource | undefined;
	view: SystemView | undefined;
	size: ContextSize;
}

/** A service whose loads can be measured with {@link measureLoaded}. */
export function measuringService(options: { templates?: string; strict?: boolean } = {}): {
	service: ContextService;
	registry: ViewRecordingRegistry;
} {
	const dir = options.templates === undefined ? DEFAULT_TEMPLATES_DIR : resolve(options.templates);
	const registry = new ViewRecordingRegistry(dir);
	const service = new ContextService({
		registry,
		...(options.strict === undefined ? {} : { strict: options.strict }),
	});
	return { service, registry };
}

/** Loads `file` through a measuring service and measures it, parts and budgets included. */
export function measureLoaded(
	target: { service: ContextService; registry: ViewRecordingRegistry },
	file: string,
	tokenizer: Tokenizer,
	options: LoadOptions = {},
): MeasuredSession {
	target.registry.lastView = undefined;
	const bundle = target.service.loadSync(file, options);
	const view = target.registry.lastView;
	const set = target.registry.get(bundle.meta.templateVersion);
	const source = target.registry.source(bundle.meta.templateVersion);
	const size = measureContext(bundle, set, tokenizer, {
		...(source === undefined ? {} : { source }),
		...(view === undefined ? {} : { view }),
	});
	return { bundle, set, source, view, size };
}
