/**
 * The build step as a library: everything a template change must pass before
 * it ships. Checks every template set (front-matter, section order, a static
 * type check of every path, helper and partial), enforces version discipline
 * against the lock, writes the precompiled sets the runtime loads, renders
 * every fixture against its snapshot and every README example against the
 * real rendering. Reports every problem, not just the first; the CLI only
 * prints what it is handed.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative } from "node:path";
import { ContextError, type Diagnostic } from "../errors.js";
import { makeFolders } from "../folders.js";
import { readRegularText } from "../log/read-text.js";
import {
	checkLock,
	LOCK_FILE,
	type Lock,
	type LockInput,
	LockSchema,
	nextLock,
} from "../rules/lock.js";
import { ContextService } from "../service/context-service.js";
import {
	compileTemplateSet,
	fingerprintOf,
	precompileTemplateSet,
	type TemplateSetSource,
} from "../templates/compile.js";
import { withFrame } from "../templates/frame.js";
import { parseTemplateFile } from "../templates/front-matter.js";
import { readTemplateSets } from "../templates/load.js";
import { precompiledPath } from "../templates/precompiled.js";
import { TemplateRegistry } from "../templates/registry.js";
import { parseYaml, validateYaml } from "../templates/yaml.js";
import { checkBudgets } from "./budgets.js";
import { driftErrors } from "./drift-groups.js";
import { checkFixtures, type FixtureResult } from "./fixtures.js";
import { checkReadme } from "./readme.js";

export interface CheckOptions {
	/** The templates folder. */
	templates: string;
	/** Fixture sessions (searched recursively). */
	fixtures: string;
	/** Their snapshots. */
	snapshots: string;
	/** The README whose marked examples are checked, if it exists. */
	readme?: string;
	/** Rewrite the lock (once versions are bumped), drifted snapshots and README examples. */
	update?: boolean;
	/**
	 * The folder the progress lines' paths (the categories each set uses, the
	 * files updated) are shown from, the working folder the command was
	 * given: relative when inside it, else whole; without it, always whole.
	 */
	cwd?: string;
	/**
	 * Report drifted snapshots a distinct change once, with the fixtures it
	 * hits counted, instead of a diff a fixture (what the watch prints).
	 */
	groupDrifts?: boolean;
}

/** Where the pipeline reports: progress lines, and findings as they come. */
export interface CheckReporter {
	info(text: string): void;
	diagnostic(d: Diagnostic): void;
}

export interface CheckResult {
	/** Every error found (the warnings were reported, not collected). */
	errors: Diagnostic[];
	/** Each fixture's outcome (empty when the templates failed before fixtures were rendered). */
	fixtures: FixtureResult[];
}

/** Runs the build step once. */
export function runCheck(options: CheckOptions, reporter: CheckReporter): CheckResult {
	const { templates, update = false } = options;
	const shown = shownFrom(options.cwd);
	const errors: Diagnostic[] = [];
	const report = (ds: readonly Diagnostic[]) => {
		for (const d of ds) {
			if (d.severity === "error") errors.push(d);
			reporter.diagnostic(withFrame(d));
		}
	};
	const failed = (): CheckResult => ({ errors, fixtures: [] });

	// 1. Every set checked and precompiled; 2. versions against the lock, for every set.
	const sources = [...readTemplateSets(templates, (d) => report([d])).values()];
	const modules = new Map<string, string>();
	for (const source of sources) {
		try {
			modules.set(source.version, precompileTemplateSet(source));
			reporter.info(
				`ok templates ${source.version}: ${source.templates.size} templates checked, ${categoriesUsed(source, sources, options.cwd)}`,
			);
		} catch (error) {
			if (!(error instanceof ContextError)) throw error;
			report(error.diagnostics.length > 0 ? error.diagnostics : [error.toDiagnostic()]);
		}
	}
	const inputs = sources.map(lockInput);
	const lockFile = join(templates, LOCK_FILE);
	const findings = checkLock(readLock(lockFile), inputs, lockFile);
	const stale = findings.filter((d) => d.severity === "warning");
	const refused = findings.filter((d) => d.severity === "error");
	report(refused);
	// A set that does not compile cannot render a fixture: its errors are the run's.
	if (modules.size < sources.length) return failed();
	// A lock that refuses the sets does not stop the run (every problem is
	// reported), but nothing is written while it does.
	const write = update && refused.length === 0;
	if (stale.length > 0 && write) {
		writeFileSync(lockFile, `${JSON.stringify(nextLock(inputs), null, "\t")}\n`);
		reporter.info(
			`updated ${shown(lockFile)}:\n${stale
				.map((d) => d.message)
				.map((m) => `  ${m}`)
				.join("\n")}`,
		);
	} else if (stale.length > 0) {
		report(
			stale.map((d) => ({
				...d,
				severity: "error",
				message: `lock is out of date: ${d.message} (run build --update)`,
			})),
		);
	}

	// 3. The precompiled sets the runtime loads.
	for (const [version, module] of modules) {
		const path = precompiledPath(templates, version);
		makeFolders(dirname(path));
		writeFileSync(path, module);
	}

	// 4. Fixtures against their snapshots, rendered with the templates as they are now.
	const registry = new TemplateRegistry(templates, { compiler: compileTemplateSet });
	const service = new ContextService({ registry, strict: true });
	const fixtures = checkFixtures({
		fixtures: options.fixtures,
		snapshots: options.snapshots,
		service,
		update: write,
	});
	// Drifts in nothing but the set that renders them (a new set, say) are reported as one.
	const grouped = options.groupDrifts === true;
	const onlySet = grouped
		? []
		: fixtures.filter((r) => r.status === "drift" && onlySetChanged(r.diff));
	if (grouped) report(driftErrors(fixtures, options.snapshots));
	for (const r of fixtures) {
		if (r.status === "written") reporter.info(`updated ${shown(r.snapshot)}\n${r.diff}`);
		else if (grouped) continue;
		else if (r.status === "missing")
			report([drift(r.fixture, `no snapshot at ${r.snapshot} (run build --update)`)]);
		else if (r.status === "drift" && !onlySet.includes(r))
			report([
				drift(
					r.fixture,
					`rendering drifted from ${r.snapshot} (- snapshot, + rendering):\n${r.diff}`,
				),
			]);
	}
	if (onlySet.length > 0) {
		const sets = [...new Set(onlySet.map((r) => setChange(r.diff)))].join(", ");
		report([
			drift(
				options.snapshots,
				`${onlySet.length} fixture(s) render as before but with another set (${sets}): run build --update to record it`,
			),
		]);
	}
	const matching = fixtures.filter((r) => r.status === "ok").length;
	if (fixtures.length === 0) {
		reporter.diagnostic({
			severity: "warning",
			code: "no_fixtures",
			message: "no fixture sessions (.jsonl) here: no rendering was checked against a snapshot",
			file: options.fixtures,
		});
	}
	const written = fixtures.filter((r) => r.status === "written").length;
	reporter.info(
		`${matching} of ${fixtures.length} fixtures match their snapshots${written > 0 ? `; ${written} rewritten` : ""}`,
	);
	report(
		checkBudgets(
			templates,
			sources,
			fixtures.map((r) => r.fixture),
		),
	);

	// 5. README examples against the real rendering.
	const readme = options.readme;
	if (readme !== undefined && existsSync(readme)) {
		const text = readRegularText(readme, "cannot read the README");
		const check = checkReadme(text, readme, dirname(readme), service);
		if (write && check.diagnostics.length > 0) {
			writeFileSync(readme, check.updated);
			for (const d of check.diagnostics)
				reporter.info(`updated ${shown(readme)}:${d.line}\n${d.message}`);
		} else {
			report(check.diagnostics);
		}
		reporter.info(`${check.examples} README examples checked`);
	}
	return { errors, fixtures };
}

/**
 * Which `categories.yaml` a set renders its tools with (relative to `cwd`
 * when inside it): its own, or shared (with the other sets that use it).
 */
export function categoriesUsed(
	source: TemplateSetSource,
	sources: readonly TemplateSetSource[],
	cwd?: string,
): string {
	const { file } = source.categories;
	const shown = shownFrom(cwd)(file);
	if (dirname(file) === source.dir) return `categories from ${shown} (its own)`;
	const others = sources.filter((s) => s !== source && s.categories.file === file);
	const sharing = others.length === 0 ? "" : ` with ${others.map((s) => s.version).join(", ")}`;
	return `categories from ${shown} (shared${sharing})`;
}

/** How a progress line shows a file: relative to `cwd` when inside it, else whole. */
function shownFrom(cwd: string | undefined): (file: string) => string {
	return (file) => {
		const inside = cwd === undefined ? "" : relative(cwd, file);
		return inside === "" || inside.startsWith("..") || isAbsolute(inside) ? file : inside;
	};
}

function readLock(file: string): Lock | undefined {
	if (!existsSync(file)) return undefined;
	return validateYaml(
		LockSchema,
		parseYaml(readFileSync(file, "utf8"), file, "bad_template"),
		file,
		"bad_template",
		"lock file",
	);
}

/** The changed lines of a drift's diff (`-` snapshot, `+` rendering), without the hunk heads. */
function changedLines(diff: string): string[] {
	return diff.split("\n").filter((l) => /^[-+]/.test(l) && !/^(---|\+\+\+) /.test(l));
}

/** Whether a drift changed nothing but the line naming the set (`templates: v3`). */
function onlySetChanged(diff: string): boolean {
	const lines = changedLines(diff);
	return lines.length > 0 && lines.every((l) => /^[-+]templates: /.test(l));
}

/** `v3 → v4`, from such a drift. */
function setChange(diff: string): string {
	const lines = changedLines(diff);
	const side = (sign: string) =>
		lines.filter((l) => l.startsWith(sign)).map((l) => l.slice(sign.length + "templates: ".length));
	return `${side("-").join("/")} → ${side("+").join("/")}`;
}

function drift(fixture: string, message: string): Diagnostic {
	return { severity: "error", code: "snapshot_drift", message, file: fixture };
}

/** A set as the lock sees it: each template's declared version, read even when the set is broken. */
function lockInput(source: TemplateSetSource): LockInput {
	const templateVersions: Record<string, string> = {};
	for (const [name, { file, text }] of source.templates) {
		try {
			templateVersions[name] = parseTemplateFile(text, file).meta.version;
		} catch {
			// Its front-matter error is reported by the check above.
		}
	}
	return { source, fingerprint: fingerprintOf(source), templateVersions };
}
