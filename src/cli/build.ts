/**
 * `theway-context build`: everything a template change must pass before it
 * ships. Checks every template set (front-matter, section order, a static
 * type check of every path, helper and partial), enforces version discipline
 * against the lock, writes the precompiled sets the runtime loads, renders
 * every fixture against its snapshot and every README example against the
 * real rendering. Reports every problem, not just the first.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { checkFixtures } from "../build/fixtures.js";
import {
	checkLock,
	LOCK_FILE,
	type Lock,
	type LockInput,
	LockSchema,
	nextLock,
} from "../build/lock.js";
import { checkReadme } from "../build/readme.js";
import { ContextError, codeFrame, type Diagnostic, formatDiagnostic } from "../errors.js";
import { ContextService } from "../service.js";
import { fingerprintOf, type TemplateSetSource } from "../templates/compile.js";
import { parseTemplateFile } from "../templates/front-matter.js";
import { DEFAULT_TEMPLATES_DIR, readTemplateSets } from "../templates/load.js";
import { precompiledPath, precompileTemplateSet } from "../templates/precompiled.js";
import { TemplateRegistry } from "../templates/registry.js";
import { parseYaml, validateYaml } from "../templates/yaml.js";
import { type Io, parseCommandArgs } from "./io.js";

export const BUILD_USAGE = `Usage: theway-context build [--update] [options]

Checks every template set (front-matter, section order, every path, helper
and partial against the view-models) and the versions against the lock,
writes the precompiled sets, then renders every fixture session against its
snapshot and every README example against the real rendering.

Options:
  --update           rewrite the lock (once versions are bumped), the drifted
                     snapshots and README examples, and print what changed
  --templates DIR    the templates folder (default: the bundled templates/)
  --fixtures DIR     fixture sessions (default: ./test/fixtures)
  --snapshots DIR    their snapshots (default: ./snapshots)
  --readme FILE      the README to check (default: ./README.md, if present)
  -h, --help         this help
`;

const OPTIONS = {
	update: { type: "boolean" },
	templates: { type: "string" },
	fixtures: { type: "string" },
	snapshots: { type: "string" },
	readme: { type: "string" },
	help: { type: "boolean", short: "h" },
} as const;

export async function buildCommand(args: string[], io: Io): Promise<number> {
	const { values } = parseCommandArgs(args, OPTIONS, BUILD_USAGE);
	if (values.help === true) {
		io.stdout(BUILD_USAGE);
		return 0;
	}
	const update = values.update === true;
	const templates =
		values.templates === undefined ? DEFAULT_TEMPLATES_DIR : resolve(io.cwd, values.templates);
	const errors: Diagnostic[] = [];
	const report = (ds: readonly Diagnostic[]) => {
		for (const d of ds) {
			if (d.severity === "error") errors.push(d);
			io.stderr(`${formatDiagnostic(withFrame(d))}\n`);
		}
	};

	// 1. Every set checked and precompiled; 2. versions against the lock, for every set.
	const sources = [...readTemplateSets(templates).values()];
	const modules = new Map<string, string>();
	for (const source of sources) {
		try {
			modules.set(source.version, precompileTemplateSet(source));
			io.stdout(`ok templates ${source.version}: ${source.templates.size} templates checked\n`);
		} catch (error) {
			if (!(error instanceof ContextError)) throw error;
			report(error.diagnostics.length > 0 ? error.diagnostics : [error.toDiagnostic()]);
		}
	}
	const inputs = sources.map(lockInput);
	const lockFile = join(templates, LOCK_FILE);
	const findings = checkLock(readLock(lockFile), inputs, lockFile);
	const stale = findings.filter((d) => d.severity === "warning");
	report(findings.filter((d) => d.severity === "error"));
	if (errors.length > 0) return done(io, errors);
	if (stale.length > 0 && update) {
		writeFileSync(lockFile, `${JSON.stringify(nextLock(inputs), null, "\t")}\n`);
		io.stdout(`updated ${lockFile}:\n${stale.map((d) => `  ${d.message}`).join("\n")}\n`);
	} else if (stale.length > 0) {
		report(
			stale.map((d) => ({
				...d,
				severity: "error",
				message: `lock is out of date: ${d.message} (run build --update)`,
			})),
		);
		return done(io, errors);
	}

	// 3. The precompiled sets the runtime loads.
	for (const [version, module] of modules) {
		const path = precompiledPath(templates, version);
		mkdirSync(dirname(path), { recursive: true });
		writeFileSync(path, module);
	}

	// 4. Fixtures against their snapshots, rendered with the templates as they are now.
	const service = new ContextService({ registry: new TemplateRegistry(templates) });
	const results = checkFixtures({
		fixtures: resolve(io.cwd, values.fixtures ?? join("test", "fixtures")),
		snapshots: resolve(io.cwd, values.snapshots ?? "snapshots"),
		service,
		update,
	});
	for (const r of results) {
		if (r.status === "written") io.stdout(`updated ${r.snapshot}\n${r.diff}\n`);
		else if (r.status === "missing")
			report([drift(r.fixture, `no snapshot at ${r.snapshot} (run build --update)`)]);
		else if (r.status === "drift")
			report([
				drift(
					r.fixture,
					`rendering drifted from ${r.snapshot} (- snapshot, + rendering):\n${r.diff}`,
				),
			]);
	}
	io.stdout(
		`${results.filter((r) => r.status === "ok").length} of ${results.length} fixtures match their snapshots\n`,
	);

	// 5. README examples against the real rendering.
	const readme = resolve(io.cwd, values.readme ?? "README.md");
	if (existsSync(readme)) {
		const check = checkReadme(readFileSync(readme, "utf8"), readme, dirname(readme), service);
		if (update && check.diagnostics.length > 0) {
			writeFileSync(readme, check.updated);
			for (const d of check.diagnostics) io.stdout(`updated ${readme}:${d.line}\n${d.message}\n`);
		} else {
			report(check.diagnostics);
		}
		io.stdout(`${check.examples} README examples checked\n`);
	}
	return done(io, errors);
}

/** A located diagnostic with no frame gets one from its file, when it can be read. */
function withFrame(d: Diagnostic): Diagnostic {
	if (d.frame !== undefined || d.file === undefined || d.line === undefined || !existsSync(d.file))
		return d;
	if (!d.file.endsWith(".hbs") && !d.file.endsWith(".yaml") && !d.file.endsWith(".json")) return d;
	const frame = codeFrame(readFileSync(d.file, "utf8"), d.line, d.column);
	return frame === undefined ? d : { ...d, frame };
}

function done(io: Io, errors: readonly Diagnostic[]): number {
	if (errors.length === 0) return 0;
	io.stderr(`build failed: ${errors.length} error${errors.length === 1 ? "" : "s"}\n`);
	return 1;
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
