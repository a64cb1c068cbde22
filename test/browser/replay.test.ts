/**
 * The preview's replay view in a real browser: for the selected session, one
 * stacked bar per model call (cached, new, output) whose heights are the
 * replay's numbers, and the recorded prompt as a line where the log has it;
 * choosing another session redraws it. A screenshot goes to `test/browser/out/`.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readUnits, Units } from "../../src/measure/units.js";
import { Prices } from "../../src/replay/prices.js";
import { Replayer } from "../../src/replay/replay.js";
import { compileTemplateSet } from "../../src/templates/compile.js";
import { scratch } from "../support/preview.js";
import { assistant, HEADER, user } from "../support/session.js";
import { HAVE_CHROMIUM, launch, type Preview, ROOT, startPreviewCli } from "./support.js";

const SHOTS = join(ROOT, "test/browser/out");
const CALLS = 6;

/** A linear session whose every answer records its usage. */
function sessionWithUsage(): unknown[] {
	const lines: unknown[] = [HEADER];
	let parent: string | null = null;
	for (let t = 1; t <= CALLS; t++) {
		lines.push(user(`u${t}`, parent, `question ${t}: ${"what about this ".repeat(t * 10)}`));
		const a = assistant(
			`a${t}`,
			`u${t}`,
			`answer ${t}: ${"it is so ".repeat(t * 8)}`,
		) as unknown as {
			message: Record<string, unknown>;
		};
		a.message.usage = { input: 2, cacheRead: 900 * (t - 1), cacheWrite: 900, output: 40 + t };
		lines.push(a);
		parent = `a${t}`;
	}
	return lines;
}

describe.skipIf(!HAVE_CHROMIUM)(
	"the preview's replay view in Chromium",
	{ timeout: 60_000 },
	() => {
		let browser: Browser;
		let preview: Preview;
		let page: Page;
		const paths = scratch();
		const file = join(paths.sessions, "with-usage.jsonl");
		writeFileSync(
			file,
			`${sessionWithUsage()
				.map((l) => JSON.stringify(l))
				.join("\n")}\n`,
		);

		beforeAll(async () => {
			mkdirSync(SHOTS, { recursive: true });
			[browser, preview] = await Promise.all([
				launch(),
				startPreviewCli(["sessions", "--templates", "templates"], paths.root),
			]);
			page = await browser.newPage({ viewport: { width: 1100, height: 760 } });
		}, 60_000);
		afterAll(async () => {
			await browser?.close();
			await preview?.stop();
		});

		const bars = (kind: string) =>
			page.$$eval(`#replay .call rect.${kind}`, (rects) =>
				rects.map((r) => Number(r.getAttribute("data-tokens"))),
			);

		it("draws a stacked bar per call with the replay's numbers, and the recorded prompt", async () => {
			await page.goto(`${preview.url}#session=with-usage.jsonl`);
			await page.waitForSelector("#replay[data-state='ok'] .replay-chart");
			const expected = new Replayer(
				{ side: { templates: paths.templates } },
				new Units({ table: readUnits() }),
				new Prices(),
				{ compiler: compileTemplateSet },
			).replay(file);
			expect(await bars("cached")).toEqual(expected.calls.map((c) => c.cachedTokens));
			expect(await bars("new")).toEqual(expected.calls.map((c) => c.newTokens));
			expect(await bars("output")).toEqual(expected.calls.map((c) => c.outputTokens));
			expect(await page.$$eval("#replay polyline.recorded", (l) => l.length)).toBe(1);
			const points = await page.getAttribute("#replay polyline.recorded", "points");
			expect(points?.trim().split(/\s+/)).toHaveLength(CALLS);
			expect(await page.textContent("#replay .replay-summary")).toContain(`${CALLS} model calls`);
			await page.screenshot({ path: join(SHOTS, "replay.png"), fullPage: false });
		});

		it("follows the page to another session; a log without usage has no line", async () => {
			await page.click("#session-list button[data-id='1-normal.jsonl']");
			await page.waitForFunction(
				() =>
					document
						.querySelector("#replay .replay-summary")
						?.textContent?.includes("no recorded") === true ||
					document.querySelector("#replay")?.textContent?.includes("no model call") === true,
			);
			expect(await page.$$eval("#replay polyline.recorded", (l) => l.length)).toBe(0);
		});
	},
);
