/**
 * The templates as they are on disk now. Each change starts a new
 * generation: a fresh registry that compiles every set from its sources
 * (never from precompiled modules, never checked against the lock), so the
 * working copy renders as soon as it is saved, before any version bump.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import type { ContextError, Diagnostic } from "../errors.js";
import { Measuring } from "../measure/session.js";
import type { Units } from "../measure/units.js";
import { fingerprintOf, type TemplateSetSource } from "../templates/compile.js";
import { withFrame } from "../templates/frame.js";
import { parseTemplateFile } from "../templates/front-matter.js";
import { readTemplateSets } from "../templates/load.js";
import type { ViewOptions } from "../view/derive.js";
import type { DiagnosticView, PlaceView, SetChoice } from "./protocol.js";

export class Workspace {
	/** Bumped on every change of the templates. */
	generation = 0;
	readonly templates: string;
	private measuring!: Measuring;
	private sources: Map<string, TemplateSetSource> | undefined;

	/**
	 * `cwd`: paths shown to people are relative to it; `overrides`: what every
	 * session is rendered with in place of its own values (`tools`: a tools
	 * manifest's names).
	 */
	constructor(
		templates: string,
		readonly cwd: string,
		readonly units: Units,
		readonly overrides: ViewOptions = {},
	) {
		this.templates = resolve(templates);
		this.refresh();
	}

	/** Forgets everything compiled: the next rendering reads the sources again. */
	refresh(): void {
		this.generation++;
		this.measuring = new Measuring({ templates: this.templates, precompiled: false });
		this.sources = undefined;
	}

	/** The measuring service of this generation. */
	get current(): Measuring {
		return this.measuring;
	}

	/** The sets as read now (throws the located error of an unreadable folder). */
	setSources(): Map<string, TemplateSetSource> {
		this.sources ??= readTemplateSets(this.templates);
		return this.sources;
	}

	/** The set choices: the session's own, then each set, marked when it differs from the lock. */
	choices(): SetChoice[] {
		const choices: SetChoice[] = [{ id: "", label: "the session's set" }];
		let sources: Map<string, TemplateSetSource>;
		try {
			sources = this.setSources();
		} catch {
			return choices; // the failure is shown with the rendering
		}
		const locked = this.lockedFingerprints();
		for (const [version, source] of sources) {
			const lock = locked.get(version);
			const state =
				lock === undefined
					? "working copy, not in lock.json"
					: lock === fingerprintOf(source)
						? "as locked"
						: "working copy, edited since lock.json";
			choices.push({ id: version, label: `${version} (${state})` });
		}
		return choices;
	}

	/** Where template `name` of set `version` starts its body. */
	templatePlace(version: string, name: string): PlaceView {
		const source = this.setSources().get(version);
		const template = source?.templates.get(name);
		if (source === undefined || template === undefined) {
			return { file: this.show(join(this.templates, version, `${name}.hbs`)) };
		}
		try {
			return {
				file: this.show(template.file),
				line: parseTemplateFile(template.text, template.file).bodyLine,
			};
		} catch {
			return { file: this.show(template.file), line: 1 };
		}
	}

	/** The line of the skeleton of set `version` that holds `text`. */
	skeletonPlace(version: string, text: string): PlaceView | undefined {
		const skeleton = this.setSources().get(version)?.templates.get("system");
		if (skeleton === undefined) return undefined;
		const index = skeleton.text.split("\n").findIndex((line) => line.trim() === text);
		return index < 0 ? undefined : { file: this.show(skeleton.file), line: index + 1 };
	}

	/** Whether `error` is about the templates (not the session). */
	isTemplateError(error: ContextError): boolean {
		const file = error.file ?? error.diagnostics[0]?.file;
		if (file === undefined) return false;
		const inside = relative(this.templates, file);
		return (
			(!inside.startsWith("..") && !isAbsolute(inside)) ||
			file === join(dirname(this.templates), "categories.yaml")
		);
	}

	/** Every finding of `error`, framed when it points into a template. */
	diagnosticsOf(error: ContextError): DiagnosticView[] {
		const list = error.diagnostics.length > 0 ? error.diagnostics : [error.toDiagnostic()];
		return list.map((d) => this.view(this.isTemplateError(error) ? withFrame(d) : d));
	}

	/** A diagnostic for the page: its path shown relative to the working directory. */
	view(d: Diagnostic): DiagnosticView {
		return {
			severity: d.severity,
			code: d.code,
			message: d.message,
			file: d.file === undefined ? "" : this.show(d.file),
			...(d.line === undefined ? {} : { line: d.line }),
			...(d.column === undefined ? {} : { column: d.column }),
			...(d.frame === undefined ? {} : { frame: d.frame }),
		};
	}

	/** `file` relative to the working directory when inside it. */
	show(file: string): string {
		const rel = relative(this.cwd, file);
		return rel === "" || rel.startsWith("..") || isAbsolute(rel) ? file : rel;
	}

	private lockedFingerprints(): Map<string, string> {
		const file = join(this.templates, "lock.json");
		const out = new Map<string, string>();
		if (!existsSync(file)) return out;
		try {
			const lock = JSON.parse(readFileSync(file, "utf8")) as {
				sets?: Record<string, { fingerprint?: string }>;
			};
			for (const [version, set] of Object.entries(lock.sets ?? {})) {
				if (typeof set.fingerprint === "string") out.set(version, set.fingerprint);
			}
		} catch {
			// An unreadable lock only loses the labels; the build step reports it.
		}
		return out;
	}
}
