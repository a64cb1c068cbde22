/**
 * Keeping the editor's diagnostics current. A change to an open document
 * (or a watched file) marks its templates folder; on the next turn of the
 * event loop every set of that folder is checked (unchanged sets from the
 * cache) and the diagnostics of every file of the folder are published:
 * always the edited document's, the others' when they changed. Budgets need
 * every fixture rendered, so they are measured once typing pauses, and
 * published when done.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Diagnostic as LspDiagnostic } from "vscode-languageserver";
import type { Diagnostic } from "../errors.js";
import { fingerprintOf, type TemplateSetSource } from "../templates/compile.js";
import { checkSet, checkVersions, lockInputOf, toLsp } from "./diagnostics.js";
import { forgetMeasures, measureSet, type SetMeasure } from "./fixtures.js";
import { LOCK_NAME, type TemplatesFolder } from "./workspace.js";

/** How long typing must pause before the fixtures are rendered for budgets. */
export const BUDGET_DELAY_MS = 400;

export interface PublishTarget {
	publish(uri: string, diagnostics: LspDiagnostic[]): void;
	/** The open document's text of a file, if it is open. */
	openText(file: string): string | undefined;
	fixtures(folder: TemplatesFolder): string[];
	log(message: string): void;
}

/** The diagnostics of the folders, and the measures of their sets. */
export class Publisher {
	private readonly published = new Map<string, string>();
	private readonly dirty = new Map<TemplatesFolder, Set<string>>();
	private scheduled = false;
	private budgetTimer: NodeJS.Timeout | undefined;
	/** The latest measure of each set (by folder), whatever texts it was made from. */
	readonly measures = new Map<string, { fingerprint: string; measure: SetMeasure }>();

	constructor(private readonly target: PublishTarget) {}

	/** Forgets every measure: the fixtures changed, sizes and budgets are measured again. */
	forgetMeasures(): void {
		this.measures.clear();
		forgetMeasures();
	}

	/** Checks `folder` again on the next turn; `file`'s diagnostics are published even if unchanged. */
	touch(folder: TemplatesFolder, file?: string): void {
		const files = this.dirty.get(folder) ?? new Set<string>();
		if (file !== undefined) files.add(file);
		this.dirty.set(folder, files);
		if (this.scheduled) return;
		this.scheduled = true;
		setImmediate(() => this.flush());
	}

	/** Checks every marked folder now and publishes. */
	flush(): void {
		this.scheduled = false;
		const work = [...this.dirty];
		this.dirty.clear();
		for (const [folder, files] of work) {
			try {
				this.publishFolder(folder, files);
			} catch (error) {
				this.target.log(`checking ${folder.root} failed: ${(error as Error).stack ?? error}`);
			}
		}
		clearTimeout(this.budgetTimer);
		this.budgetTimer = setTimeout(() => this.measureAll(work.map(([f]) => f)), BUDGET_DELAY_MS);
	}

	private publishFolder(folder: TemplatesFolder, force: ReadonlySet<string>): void {
		const byFile = new Map<string, Diagnostic[]>();
		const add = (d: Diagnostic, fallback: string) => {
			const file = d.file ?? fallback;
			byFile.set(file, [...(byFile.get(file) ?? []), d]);
		};
		const sets = folder.sets();
		const files = new Set<string>([join(folder.root, LOCK_NAME), ...force]);
		const error = folder.error();
		if (error !== undefined) for (const f of force) add(error.toDiagnostic(), f);
		for (const f of force) for (const d of folder.warningsFor(f)) add(d, f);
		const inputs = [];
		for (const source of sets.values()) {
			const fingerprint = fingerprintOf(source);
			for (const t of source.templates.values()) files.add(t.file);
			files.add(source.categories.file);
			for (const d of checkSet(source, fingerprint)) add(d, source.dir);
			const last = this.measures.get(source.dir);
			if (last?.fingerprint === fingerprint)
				for (const d of last.measure.budgets) add(d, source.dir);
			inputs.push(lockInputOf(source, fingerprint));
		}
		const lockFile = join(folder.root, LOCK_NAME);
		if (sets.size > 0)
			for (const d of checkVersions(folder.lock(), inputs, lockFile)) add(d, lockFile);
		for (const file of new Set([...files, ...byFile.keys()])) {
			const found = byFile.get(file) ?? [];
			const text = found.length === 0 ? "" : this.textOf(file, sets);
			const diagnostics = found.map((d) => toLsp(d, text));
			const uri = pathToFileURL(file).href;
			const json = JSON.stringify(diagnostics);
			if (!force.has(file) && (this.published.get(uri) ?? "[]") === json) continue;
			this.published.set(uri, json);
			this.target.publish(uri, diagnostics);
		}
	}

	private textOf(file: string, sets: ReadonlyMap<string, TemplateSetSource>): string {
		const open = this.target.openText(file);
		if (open !== undefined) return open;
		for (const s of sets.values()) {
			for (const t of s.templates.values()) if (t.file === file) return t.text;
			if (s.categories.file === file) return s.categories.text;
		}
		try {
			return readFileSync(file, "utf8");
		} catch {
			return "";
		}
	}

	/** Measures every set of `folders` whose texts changed since their last measure, then republishes. */
	private measureAll(folders: readonly TemplatesFolder[]): void {
		for (const folder of folders) {
			let changed = false;
			const sets = folder.sets();
			for (const source of sets.values()) {
				const fingerprint = fingerprintOf(source);
				if (this.measures.get(source.dir)?.fingerprint === fingerprint) continue;
				try {
					const measure = measureSet(folder.root, sets, source, this.target.fixtures(folder));
					if (measure === undefined) continue;
					this.measures.set(source.dir, { fingerprint, measure });
					changed = true;
				} catch (error) {
					this.target.log(`measuring ${source.dir} failed: ${(error as Error).stack ?? error}`);
				}
			}
			if (changed) this.publishFolder(folder, new Set());
		}
	}
}
