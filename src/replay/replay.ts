/**
 * One session replayed: every model call's context counted under the
 * session's set (or the one asked for), its prefix shared with the previous
 * call, its recorded usage and its cost; under a second set too with `vs`.
 * What `replay` runs per session, in a worker or not. A session that cannot
 * be read is its `error`, not a throw, so a folder goes on.
 */
import { ContextError, type Diagnostic } from "../errors.js";
import { Units } from "../measure/units.js";
import { type Compiler, TemplateRegistry } from "../templates/registry.js";
import type { TemplateSet } from "../templates/set.js";
import type { Tokenizer } from "../text/tokenizer.js";
import { type Billed, billOf, fileCalls, subagentFiles } from "./bill.js";
import { CallCounter } from "./count.js";
import { type Fit, type FitPoint, fitOf, growths, recordedPrompt } from "./fit.js";
import { modelCalls } from "./model-calls.js";
import {
	changeOf,
	type ReplayCall,
	type ReplayChange,
	type ReplayTotal,
	recordedOf,
	totalOf,
} from "./totals.js";

export type { ReplayCall, ReplayChange, ReplayTotal } from "./totals.js";

import type { Prices } from "./prices.js";
import { SessionWalk, type WalkOptions } from "./walk.js";

/** A set to replay with: a templates folder, and a version or (undefined) the session's pin. */
export interface ReplaySide {
	templates: string;
	version?: string;
	/** How the set is named in the report (default: its version). */
	label?: string;
}

/** One session replayed, as the report lists it (`notes` aside). */
export interface SessionReplay {
	file: string;
	set: string;
	calls: ReplayCall[];
	total: ReplayTotal;
	recordedFit: Fit | null;
	/** What the file records as billed: every call on every branch and sidechain, sub-agents folded in. */
	billed: Billed;
	/** The sub-agents' files folded into `billed`. */
	subagents: string[];
	vs?: { set: string; calls: ReplayCall[]; total: ReplayTotal; change: ReplayChange };
	error?: string;
	/** The units of the session's token figures, each with what it means. */
	units: Record<string, string>;
	/**
	 * For the summary and stderr, not the report: models with no price,
	 * growth pairs by provider and by family of the units table, warnings.
	 */
	notes: {
		unpriced: string[];
		/** The indices of the `--prices` table's entries that priced a call (so far, in this replayer). */
		priced: number[];
		growth: GrowthGroup[];
		diagnostics: Diagnostic[];
	};
}

/** The growth pairs of one provider's calls of one model family (`""`: none of the table's). */
export interface GrowthGroup {
	provider: string;
	family: string;
	pairs: [number, number][];
}

/** Replays sessions, keeping one registry per side. */
export class Replayer {
	private readonly registries = new Map<string, TemplateRegistry>();
	private readonly units: Units;
	private compiler: Compiler | undefined;

	constructor(
		private readonly sides: { side: ReplaySide; vs?: ReplaySide },
		units: Units | Tokenizer,
		private readonly prices: Prices,
		private readonly options: WalkOptions & {
			registry?: TemplateRegistry;
			/**
			 * Compiles a set that has no fresh precompiled module. Without one,
			 * {@link Replayer.ready} loads the compiler when a side needs it.
			 */
			compiler?: Compiler;
		} = {},
	) {
		this.units = Units.of(units);
		this.compiler = options.compiler;
		// A caller's registry (the preview's working copy of the sets) serves its own folder.
		if (options.registry !== undefined) this.registries.set(options.registry.dir, options.registry);
	}

	/**
	 * Makes every side's sets available to {@link replay} without a compiler
	 * given: loads the precompiled sets, and the compiler only when a set has
	 * none fresh (a folder of sources, a stale build), so that replaying with
	 * the package's own sets never loads it.
	 */
	async ready(): Promise<void> {
		const sides = [this.sides.side, ...(this.sides.vs === undefined ? [] : [this.sides.vs])];
		for (const side of sides) {
			try {
				await this.registryFor(side.templates).ready();
			} catch {
				// A set that cannot be read is each session's error, as without this step:
				// its side compiles from the sources, to fail as it always has.
				this.compiler ??= (await import("../templates/compile.js")).compileTemplateSet;
				if (this.registries.get(side.templates) !== this.options.registry)
					this.registries.delete(side.templates);
			}
		}
	}

	/** The registry of a templates folder: one per folder, with the compiler if there is one. */
	private registryFor(dir: string): TemplateRegistry {
		let registry = this.registries.get(dir);
		if (registry === undefined) {
			registry = new TemplateRegistry(
				dir,
				this.compiler === undefined ? {} : { compiler: this.compiler },
			);
			this.registries.set(dir, registry);
		}
		return registry;
	}

	/** The replay of one session; a failure to read or render it is its `error`. */
	replay(file: string): SessionReplay {
		const notes: SessionReplay["notes"] = { unpriced: [], priced: [], growth: [], diagnostics: [] };
		const empty = {
			calls: [],
			total: totalOf([]),
			recordedFit: null,
			units: {},
			billed: { calls: 0, input: 0, cacheRead: 0, cacheWrite: 0, output: 0, cost: null },
			subagents: [],
		};
		try {
			const walk = new SessionWalk(file, this.options);
			const main = this.setFor(walk, this.sides.side);
			const units: Record<string, string> = {};
			const calls = this.run(walk, main, notes, units);
			const out: SessionReplay = {
				file,
				set: this.sides.side.label ?? main.version,
				calls,
				total: totalOf(calls),
				recordedFit: fitOf(notes.growth.flatMap((g) => g.pairs)),
				units,
				...this.bill(file, walk, notes),
				notes,
			};
			if (this.sides.vs !== undefined) {
				const other = this.setFor(walk, this.sides.vs);
				const vsCalls = this.run(walk, other, notes);
				const total = totalOf(vsCalls);
				out.vs = {
					set: this.sides.vs.label ?? other.version,
					calls: vsCalls,
					total,
					change: changeOf(out.total, total),
				};
			}
			for (const d of walk.diagnostics()) notes.diagnostics.push(d);
			notes.priced = [...this.prices.priced];
			return out;
		} catch (error) {
			if (!(error instanceof ContextError)) throw error;
			return { file, set: this.sides.side.label ?? "", ...empty, error: error.message, notes };
		}
	}

	/** The session's bill, its sub-agents' files folded in (one that cannot be read is a warning). */
	private bill(
		file: string,
		walk: SessionWalk,
		notes: SessionReplay["notes"],
	): { billed: Billed; subagents: string[] } {
		const calls = [
			...walk.recordedCalls((line, reason) =>
				notes.diagnostics.push({
					code: "bad_usage",
					severity: "warning",
					message: reason,
					file: walk.name,
					line,
				}),
			),
		];
		const subagents: string[] = [];
		for (const sub of subagentFiles(file, walk.agentIds())) {
			try {
				calls.push(...fileCalls(sub));
				subagents.push(sub);
			} catch (error) {
				if (!(error instanceof ContextError)) throw error;
				notes.diagnostics.push({
					code: error.code,
					severity: "warning",
					message: `a sub-agent's file left out of the bill: ${error.reason}`,
					file: sub,
					...(error.line === undefined ? {} : { line: error.line }),
				});
			}
		}
		return { billed: billOf(calls, this.prices, notes.unpriced), subagents };
	}

	/**
	 * Every call of `walk` under `set`, each counted in its model's units;
	 * with `units` (the first side), the units met and the growth pairs go
	 * to the caller. A call whose units differ from the previous call's
	 * shares no prefix with it (a provider caches per model).
	 */
	private run(
		walk: SessionWalk,
		set: TemplateSet,
		notes: SessionReplay["notes"],
		units?: Record<string, string>,
	): ReplayCall[] {
		const counters = new Map<string, CallCounter>();
		const calls: ReplayCall[] = [];
		const points: (FitPoint & { provider: string; family: string })[] = [];
		let unit = "";
		for (const { call, model, provider, date, priced } of modelCalls(walk, set, this.prices)) {
			const tokenizer = this.units.forModel(model);
			let counter = counters.get(tokenizer.name);
			if (counter === undefined) {
				counter = new CallCounter(set, tokenizer);
				counters.set(tokenizer.name, counter);
			} else if (tokenizer.name !== unit) counter.forget();
			unit = tokenizer.name;
			if (units !== undefined) units[unit] = tokenizer.label;
			const counted = counter.count(call);
			const recorded = recordedOf(call.answer.usage);
			const outputTokens = recorded?.output ?? null;
			let cost: number | null = null;
			const price =
				model === null || outputTokens === null
					? undefined
					: this.prices.costOf({
							provider,
							model,
							usage: {
								input: 0,
								cacheRead: counted.cachedTokens,
								cacheWrite: counted.newTokens,
								output: outputTokens,
							},
							date,
						});
			if (!priced) {
				const name = model ?? "(no model)";
				if (!notes.unpriced.includes(name)) notes.unpriced.push(name);
			} else if (price !== undefined) cost = price;
			calls.push({
				index: calls.length,
				entryId: call.entryId,
				model,
				contextTokens: counted.contextTokens,
				cachedTokens: counted.cachedTokens,
				newTokens: counted.newTokens,
				outputTokens,
				recorded,
				cost,
				unit,
			});
			points.push({
				context: counted.wholeTokens,
				prompt: recordedPrompt(recorded),
				provider: provider ?? "(unknown)",
				family: this.units.familyOf(model)?.family ?? "",
			});
		}
		// Pairs are grouped by the provider and family of the later call of each pair.
		if (units !== undefined) {
			for (let i = 1; i < points.length; i++) {
				const later = points[i] as (typeof points)[number];
				const pair = growths([points[i - 1] as FitPoint, later])[0];
				if (pair === undefined) continue;
				let group = notes.growth.find(
					(g) => g.provider === later.provider && g.family === later.family,
				);
				if (group === undefined) {
					group = { provider: later.provider, family: later.family, pairs: [] };
					notes.growth.push(group);
				}
				group.pairs.push(pair);
			}
		}
		return calls;
	}

	/** The set `side` names for this session: asked for, else the session's pin, else the newest. */
	private setFor(walk: SessionWalk, side: ReplaySide): TemplateSet {
		const registry = this.registryFor(side.templates);
		const pin = walk.pin;
		if (side.version !== undefined || pin === undefined) return registry.get(side.version);
		try {
			return registry.get(pin.version);
		} catch (error) {
			if (!(error instanceof ContextError) || error.code !== "unknown_template_version")
				throw error;
			throw new ContextError(
				"unknown_template_version",
				`the session pins templateVersion ${JSON.stringify(pin.version)}, which ${side.templates} does not hold (have: ${registry.versions().join(", ")}); name a set to replay it with (--template-version)`,
				{ file: walk.name, ...(pin.line === undefined ? {} : { line: pin.line }) },
				{ cause: error },
			);
		}
	}
}
