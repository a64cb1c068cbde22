/**
 * One session rendered with two template sets, compared part by part: each
 * system-prompt section and each message's provider-ready text (its
 * framing), with the tokens of both sides and a unified diff of the text.
 * What `diff` runs per session, in a worker or not.
 */

import { ContextError, type Diagnostic, formatDiagnostic } from "../errors.js";
import { framingOf } from "../render/convert.js";
import type { ContextBundle, LoadOptions } from "../service/bundle.js";
import { ContextService } from "../service/context-service.js";
import type { LlmMessage } from "../session/messages.js";
import { compileTemplateSet } from "../templates/compile.js";
import { TemplateRegistry } from "../templates/registry.js";
import { contentOf } from "../text/content.js";
import { unifiedDiff } from "../text/line-diff.js";
import type { Tokenizer } from "../text/tokenizer.js";
import { sectionSpans } from "./measure.js";
import { Units } from "./units.js";

/** Token counts kept for reuse: at most this many texts, each at most this long. */
const MAX_CACHED = 4096;
const MAX_CACHED_CHARS = 64 * 1024;

/** One side of a comparison: a templates folder, and a set version or the service's default. */
export interface Side {
	templates: string;
	/** Render with this set; undefined: the set the session pins, else the newest. */
	version?: string;
}

/** A part whose text differs between the sides. */
export interface ChangedPart {
	/** A section name, or `message <index>`. */
	section: string;
	tokensFrom: number;
	tokensTo: number;
	/** The unified diff of its text, `-` from, `+` to. */
	diff: string;
	/**
	 * For a message: the template each side framed it with (`tool-result-stub`
	 * for a result sent as a stub); absent where a side sent it as stored.
	 */
	framing?: { from?: string; to?: string };
}

export interface SessionDiff {
	file: string;
	/** The set each side rendered the session with (absent when it failed). */
	sets?: { from: string; to: string };
	changed: ChangedPart[];
	/** The whole context's token change, to − from (the sum over the changed parts). */
	tokenDelta: number;
	/** The unit of the token figures: an encoding (`o200k`) or the session's model family's estimate (`claude~`). */
	unit: string;
	/** Tool results each side sends as stubs, and the tokens (in `unit`) they save (`meta.virtualized`). */
	virtualized: { from: Savings; to: Savings };
	/** What reading the session warned (each once, whichever side's load said it). */
	warnings: Diagnostic[];
	/** Why the session could not be compared, located. */
	error?: string;
}

/** How many tool results a rendering sends as stubs, and the tokens that saves. */
export interface Savings {
	results: number;
	saved: number;
}

/** Compares sessions, keeping one service per side. */
export class Comparer {
	private readonly from: ContextService;
	private readonly to: ContextService;
	private readonly counts = new Map<string, number>();
	private tokenizer: Tokenizer | undefined;
	private readonly units: Units;
	/** The load options both sides share (`tools`: the session's tools, in place of its own). */
	private readonly shared: LoadOptions;

	constructor(
		private readonly sides: { from: Side; to: Side },
		units: Units | Tokenizer,
		options: { strict?: boolean; tools?: readonly string[] } = {},
	) {
		const service = (side: Side) =>
			new ContextService({
				registry: new TemplateRegistry(side.templates, { compiler: compileTemplateSet }),
				maxOpenSessions: 1,
				...(options.strict === undefined ? {} : { strict: options.strict }),
			});
		this.units = Units.of(units);
		this.shared = options.tools === undefined ? {} : { tools: options.tools };
		this.from = service(sides.from);
		this.to = service(sides.to);
	}

	/** The comparison of one session; a failure to load or render is its `error`, not a throw. */
	compare(file: string): SessionDiff {
		try {
			const a = load(this.from, file, this.sides.from, this.shared);
			const b = load(this.to, file, this.sides.to, this.shared);
			const tokenizer = this.units.forModel(a.meta.model?.modelId);
			if (tokenizer !== this.tokenizer) this.counts.clear();
			this.tokenizer = tokenizer;
			const partsA = this.parts(this.from, a);
			const partsB = this.parts(this.to, b);
			const changed: ChangedPart[] = [];
			let tokenDelta = 0;
			// Unchanged parts add nothing to the delta, so only changed ones are counted.
			for (const name of union([...partsA.texts.keys()], [...partsB.texts.keys()])) {
				const textA = partsA.texts.get(name);
				const textB = partsB.texts.get(name);
				if (textA === textB) continue;
				const from = this.count(textA);
				const to = this.count(textB);
				tokenDelta += to - from;
				const framing = framingOfPart(partsA.framings.get(name), partsB.framings.get(name));
				changed.push({
					section: name,
					tokensFrom: from,
					tokensTo: to,
					diff: unifiedDiff(textA ?? "", textB ?? ""),
					...(framing === undefined ? {} : { framing }),
				});
			}
			const virtualized = { from: partsA.savings, to: partsB.savings };
			const warnings = onceEach([...a.meta.diagnostics, ...b.meta.diagnostics]);
			const sets = { from: a.meta.templateVersion, to: b.meta.templateVersion };
			return { file, sets, changed, tokenDelta, unit: tokenizer.name, virtualized, warnings };
		} catch (error) {
			if (!(error instanceof ContextError)) throw error;
			const none = { results: 0, saved: 0 };
			return {
				file,
				changed: [],
				tokenDelta: 0,
				unit: "",
				virtualized: { from: none, to: none },
				warnings: [],
				error: error.message,
			};
		}
	}

	/**
	 * The comparable parts of a bundle, in order: its sections, then its
	 * messages as the model gets them; and the tokens its stubs save.
	 */
	private parts(
		service: ContextService,
		bundle: ContextBundle,
	): { texts: Map<string, string>; framings: Map<string, string>; savings: Savings } {
		const texts = new Map<string, string>();
		const framings = new Map<string, string>();
		for (const s of sectionSpans(bundle.systemPrompt)) {
			texts.set(s.name, bundle.systemPrompt.slice(s.start, s.end));
		}
		const convert = service.converter(bundle);
		const stubbed = new Set(bundle.meta.virtualized.map((v) => v.index));
		let saved = 0;
		bundle.messages.forEach((message, index) => {
			const llm = convert(index);
			if (llm === undefined) return;
			const text = contentOf(llm.content).text;
			texts.set(`message ${index}`, text);
			const framing = stubbed.has(index) ? "tool-result-stub" : framingOf(message);
			if (framing !== undefined) framings.set(`message ${index}`, framing);
			if (stubbed.has(index))
				saved += this.count(contentOf((message as LlmMessage).content).text) - this.count(text);
		});
		return { texts, framings, savings: { results: stubbed.size, saved } };
	}

	/** Tokens of a part; a text seen before (a harness shared by a corpus) is counted once. */
	private count(text: string | undefined): number {
		if (text === undefined || text === "") return 0;
		const cached = this.counts.get(text);
		if (cached !== undefined) return cached;
		const n = (this.tokenizer as Tokenizer).count(text);
		if (text.length <= MAX_CACHED_CHARS) {
			if (this.counts.size >= MAX_CACHED) this.counts.clear();
			this.counts.set(text, n);
		}
		return n;
	}
}

/** A changed message's framing on each side, if either side framed it. */
function framingOfPart(
	from: string | undefined,
	to: string | undefined,
): ChangedPart["framing"] | undefined {
	if (from === undefined && to === undefined) return undefined;
	return { ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) };
}

/** `diagnostics` without repeats (both sides read the same log and warn alike). */
function onceEach(diagnostics: readonly Diagnostic[]): Diagnostic[] {
	const seen = new Set<string>();
	return diagnostics.filter((d) => {
		const key = formatDiagnostic(d);
		if (seen.has(key)) return false;
		seen.add(key);
		return true;
	});
}

function load(
	service: ContextService,
	file: string,
	side: Side,
	shared: LoadOptions,
): ContextBundle {
	const options: LoadOptions =
		side.version === undefined ? shared : { ...shared, templateVersion: side.version };
	const bundle = service.loadSync(file, options);
	service.close(file);
	return bundle;
}

/** The names of both lists, in the order they come (a's first, then b's new ones where they stand). */
function union(a: readonly string[], b: readonly string[]): string[] {
	const seen = new Set(a);
	const out = [...a];
	for (const name of b) if (!seen.has(name)) out.push(name);
	return out;
}
