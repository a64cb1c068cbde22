/**
 * An eval report as JUnit XML, for CI: a test suite per set, a test case
 * per assertion per call and sample (a call with no assertions is one case:
 * it passes when it was answered), a failed assertion as `<failure>`, a
 * call that failed as `<error>`.
 */
import type { EvalReport, EvalRun } from "./report.js";

const xml = (s: string) =>
	s
		// biome-ignore lint/suspicious/noControlCharactersInRegex: XML 1.0 cannot hold these at all
		.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, "\ufffd")
		.replace(/&/g, "&amp;")
		.replace(/</g, "&lt;")
		.replace(/>/g, "&gt;")
		.replace(/"/g, "&quot;");

/** The JUnit XML of `report`. */
export function formatJunit(report: EvalReport): string {
	const suites = [{ set: report.set ?? "each session's own set", runs: report.runs }];
	if (report.vs !== undefined) suites.push({ set: report.vs.set, runs: report.vs.runs });
	const out = [
		'<?xml version="1.0" encoding="UTF-8"?>',
		`<testsuites name="eval ${xml(report.model)}">`,
	];
	for (const suite of suites) {
		const cases = suite.runs.flatMap((run) => casesOf(run));
		if (cases.length === 0) continue; // every session failed to load: their suites say so
		const failures = cases.filter((c) => c.includes("<failure")).length;
		const errors = cases.filter((c) => c.includes("<error")).length;
		out.push(
			`  <testsuite name="${xml(suite.set)}" tests="${cases.length}" failures="${failures}" errors="${errors}">`,
			...cases,
			"  </testsuite>",
		);
	}
	for (const f of report.failed) {
		out.push(
			`  <testsuite name="${xml(f.file)}" tests="1" failures="0" errors="1">`,
			`    <testcase classname="${xml(f.file)}" name="load"><error message="${xml(f.error)}"/></testcase>`,
			"  </testsuite>",
		);
	}
	out.push("</testsuites>");
	return `${out.join("\n")}\n`;
}

function casesOf(run: EvalRun): string[] {
	const classname = xml(`${run.file}#${run.index}`);
	const time = run.latencyMs === null ? "" : ` time="${(run.latencyMs / 1000).toFixed(3)}"`;
	const prefix = `call ${run.index} sample ${run.sample} (${run.set})`;
	if (run.error !== null) {
		const names = run.assertions.length === 0 ? ["answered"] : run.assertions.map((a) => a.name);
		return names.map(
			(name) =>
				`    <testcase classname="${classname}" name="${xml(`${prefix}: ${name}`)}"${time}><error message="${xml(run.error ?? "")}"/></testcase>`,
		);
	}
	if (run.assertions.length === 0) {
		return [`    <testcase classname="${classname}" name="${xml(`${prefix}: answered`)}"${time}/>`];
	}
	return run.assertions.map((a) => {
		const head = `    <testcase classname="${classname}" name="${xml(`${prefix}: ${a.name}`)}"${time}`;
		return a.pass ? `${head}/>` : `${head}><failure message="${xml(a.reason)}"/></testcase>`;
	});
}
