/**
 * The requests of an eval: for each chosen call of a session, the context
 * the compiler gives at that point under each set (the bundle whose leaf is
 * the call's parent, loaded as `render --leaf` loads it), mapped to the
 * provider's request body; and what the session recorded there. The calls
 * are replay's (its model calls of the active branch), so indices and entry
 * ids agree with replay's report.
 */
import type { Diagnostic } from "../errors.js";
import { modelCalls } from "../replay/model-calls.js";
import { Prices } from "../replay/prices.js";
import { SessionWalk } from "../replay/walk.js";
import type { Composed, ContextBundle, LoadOptions } from "../service/bundle.js";
import { ContextService } from "../service/context-service.js";
import { compileTemplateSet } from "../templates/compile.js";
import { TemplateRegistry } from "../templates/registry.js";
import type { Tokenizer } from "../text/tokenizer.js";
import { type ToolDefinition, toolNames } from "../view/tools-manifest.js";
import { blocksOf, textOf } from "./blocks.js";
import { type CallSelection, pickCalls } from "./calls.js";
import { countRequest } from "./cost.js";
import { requestBody, sessionTools, withCalledTools } from "./request.js";
import type { RequestBody, RequestSettings } from "./settings.js";

/** A set to ask with: a templates folder, and a version or (undefined) the session's pin. */
export interface EvalSide {
	templates: string;
	version?: string;
	/** How the set is named in the report (default: its version). */
	label?: string;
}

/** A tool call, as an answer or the log has it. */
export interface ToolCall {
	name: string;
	arguments: unknown;
}

/** What the session's assistant did at a call. */
export interface Recorded {
	text: string;
	toolCalls: ToolCall[];
}

/** One call's request under one set. */
export interface SideRequest {
	set: string;
	body: RequestBody;
	/** The request's tokens, counted as replay counts a context. */
	inputTokens: number;
}

/** A chosen call: where it is, what was recorded, and its request per set (the first set, then `--vs`). */
export interface PreparedCall {
	file: string;
	index: number;
	entryId: string;
	recorded: Recorded;
	requests: SideRequest[];
}

/** The request settings without the tools, which come from a manifest or the session. */
export type BaseSettings = Omit<RequestSettings, "tools">;

/** A request for one leaf of a session under one service's set. */
export interface LeafRequest {
	body: RequestBody;
	bundle: ContextBundle;
	inputTokens?: number;
}

/**
 * The request body for the bundle `options` load from `file`: what `render
 * --format anthropic|openai` prints and `eval` sends. A manifest is the
 * session's tools: the inventory the prompt lists and the tools the request
 * declares. The settings may depend on the bundle (the model the session
 * used, say).
 */
export async function leafRequest(
	service: ContextService,
	file: string,
	options: LoadOptions,
	settings: BaseSettings | ((bundle: ContextBundle) => BaseSettings),
	manifest: readonly ToolDefinition[] | undefined,
): Promise<LeafRequest> {
	const composed = await service.compose(file, withManifest(options, manifest));
	return requestOf(service, composed, settings, manifest);
}

/** The load options with a manifest's names as the session's tools. */
function withManifest(options: LoadOptions, manifest: readonly ToolDefinition[] | undefined) {
	return manifest === undefined ? options : { ...options, tools: toolNames(manifest) };
}

/** The request body of a composed bundle (see {@link leafRequest}), its tokens counted with `tokenizer`. */
function requestOf(
	service: ContextService,
	composed: Composed,
	settings: BaseSettings | ((bundle: ContextBundle) => BaseSettings),
	manifest: readonly ToolDefinition[] | undefined,
	tokenizer?: Tokenizer,
): LeafRequest {
	const { bundle, view } = composed;
	const base = typeof settings === "function" ? settings(bundle) : settings;
	const messages = service.convertToLlm(bundle);
	const inventory = view.toolGroups.flatMap((g) => g.tools);
	const tools =
		manifest === undefined
			? sessionTools(inventory, messages)
			: withCalledTools(manifest, messages);
	const context = { systemPrompt: bundle.systemPrompt, messages };
	return {
		body: requestBody(context, { ...base, tools }),
		bundle,
		...(tokenizer === undefined ? {} : { inputTokens: countRequest(tokenizer, context) }),
	};
}

/** Prepares the requests of sessions, one service per templates folder. */
export class ContextBuilder {
	private readonly services = new Map<string, ContextService>();

	constructor(
		private readonly sides: readonly EvalSide[],
		private readonly settings: BaseSettings,
		private readonly manifest: readonly ToolDefinition[] | undefined,
		private readonly tokenizer: Tokenizer,
		private readonly options: { strict?: boolean } = {},
		/** Which assistant messages are calls (one written in a model's place is not): replay's prices. */
		private readonly prices: Prices = new Prices(),
	) {}

	/**
	 * The chosen calls of `file`, with their requests, one at a time (a
	 * caller may keep only what it needs of each); the read's warnings into
	 * `diagnostics` once they are all given.
	 */
	*prepare(
		file: string,
		selection: CallSelection,
		seed: number,
		name: string,
		diagnostics: Diagnostic[],
	): Generator<PreparedCall> {
		const first = this.sides[0] as EvalSide;
		const walk = new SessionWalk(file, this.options);
		const set = this.service(first).templateSet(first.version ?? walk.pin?.version);
		const all = [...modelCalls(walk, set, this.prices)].map(({ call: c, index }) => ({
			index,
			entryId: c.entryId,
			parentId: c.parentId,
			answer: c.answer,
		}));
		const chosen = pickCalls(selection, all.length, name, seed);
		try {
			for (const i of chosen) {
				const call = all[i];
				if (call === undefined) continue;
				yield {
					file,
					index: call.index,
					entryId: call.entryId,
					recorded: recordedOf(call.answer),
					requests: this.sides.map((side) => this.request(file, call.parentId, side)),
				};
			}
			diagnostics.push(...walk.diagnostics());
		} finally {
			for (const service of this.services.values()) service.close(file);
		}
	}

	/** The request of the context whose leaf is `leaf`, under `side`. */
	private request(file: string, leaf: string, side: EvalSide): SideRequest {
		const options: LoadOptions = {
			leaf,
			...(side.version === undefined ? {} : { templateVersion: side.version }),
		};
		const service = this.service(side);
		const made = requestOf(
			service,
			service.composeSync(file, withManifest(options, this.manifest)),
			this.settings,
			this.manifest,
			this.tokenizer,
		);
		return {
			set: side.label ?? made.bundle.meta.templateVersion,
			body: made.body,
			inputTokens: made.inputTokens ?? 0,
		};
	}

	private service(side: EvalSide): ContextService {
		let service = this.services.get(side.templates);
		if (service === undefined) {
			// A set with no fresh precompiled module (a folder being edited) is compiled on the spot.
			const registry = new TemplateRegistry(side.templates, { compiler: compileTemplateSet });
			service = new ContextService({
				registry,
				compiler: compileTemplateSet,
				strict: this.options.strict === true,
			});
			this.services.set(side.templates, service);
		}
		return service;
	}
}

/** The text and tool calls of a recorded assistant message. */
export function recordedOf(message: Record<string, unknown>): Recorded {
	const blocks = blocksOf(message.content);
	return {
		text: textOf(blocks),
		toolCalls: blocks.flatMap((b) =>
			b.type === "toolCall" ? [{ name: b.name, arguments: b.arguments }] : [],
		),
	};
}
