/**
 * Every fixture session against its reviewed rendering in snapshots/.
 * A drift fails with a line diff; `npm run snapshots` rewrites them.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkFixtures } from "../../src/check/fixtures.js";

const ROOT = join(import.meta.dirname, "..", "..");

describe("snapshots", () => {
	const results = checkFixtures({
		fixtures: join(ROOT, "test/fixtures"),
		snapshots: join(ROOT, "snapshots"),
	});

	it("has fixtures to check", () => {
		expect(results.length).toBeGreaterThanOrEqual(6);
	});

	for (const result of results) {
		it(`${result.name} matches its snapshot`, () => {
			if (result.status === "missing")
				expect.fail(`no snapshot at ${result.snapshot}; run npm run snapshots`);
			if (result.status === "drift") {
				expect.fail(
					`${result.name} drifted from ${result.snapshot} (- snapshot, + rendering):\n${result.diff}`,
				);
			}
			expect(result.status).toBe("ok");
		});
	}
});
