// What `npm test` reads from each suite's JSON report: how many tests passed at once, passed only on a retry
// (flaky), failed or were skipped, and the flaky ones by name. CI retries once (vitest `retry`, Playwright
// `retries`): a test that failed and then passed used to count as passed without a word, and that is how a
// refused request breaking the next one hid (issue 29, decision 122).

/**
 * Counts of a vitest JSON report (`--reporter=json`). Vitest 3's report has no retry count, but a test that
 * failed and then passed on its retry keeps the failed attempt's error in `failureMessages`: passed with an
 * error is flaky.
 */
export function vitestCounts(report) {
  const out = { passed: 0, flaky: 0, failed: 0, skipped: 0, flakyNames: [], failedNames: [] };
  for (const file of report.testResults ?? []) {
    for (const test of file.assertionResults ?? []) {
      if (test.status === "passed") {
        if ((test.failureMessages ?? []).length > 0) {
          out.flaky++;
          out.flakyNames.push(`${relative(file.name)} > ${test.fullName ?? test.title}`);
        } else out.passed++;
      } else if (test.status === "failed") {
        out.failed++;
        out.failedNames.push(`${relative(file.name)} > ${test.fullName ?? test.title}${firstLine(test.failureMessages)}`);
      } else out.skipped++;
    }
  }
  return out;
}

/**
 * Counts of a Playwright JSON report (`--reporter=json`): a test whose results have a failure then a pass has
 * the status "flaky"; "expected" passed (or was expected to fail and did), "unexpected" failed.
 */
export function playwrightCounts(report) {
  const out = { passed: 0, flaky: 0, failed: 0, skipped: 0, flakyNames: [], failedNames: [] };
  const walk = (suite, titles) => {
    // A file's own suite is titled by the file name, already given.
    const here = suite.title && suite.title !== suite.file ? [...titles, suite.title] : titles;
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status === "flaky") {
          out.flaky++;
          out.flakyNames.push(`${spec.file ?? suite.file} > ${[...here, spec.title].join(" > ")}`);
        } else if (test.status === "expected") out.passed++;
        else if (test.status === "unexpected") {
          out.failed++;
          const errors = (test.results ?? []).map((r) => r.error?.message ?? "");
          out.failedNames.push(`${spec.file ?? suite.file} > ${[...here, spec.title].join(" > ")}${firstLine(errors)}`);
        } else out.skipped++;
      }
    }
    for (const child of suite.suites ?? []) walk(child, here);
  };
  for (const suite of report.suites ?? []) walk(suite, []);
  return out;
}

/**
 * The first line of a failure's message, after " — ", so the summary at the end of a long log (all a CI page may
 * show) says which test failed and why; ANSI colours removed, cut at 200 characters.
 */
const ANSI_COLOUR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");

function firstLine(messages) {
  const text = (messages ?? []).find((m) => String(m).trim() !== "");
  if (!text) return "";
  const line = String(text).replace(ANSI_COLOUR, "").trim().split("\n")[0];
  return ` — ${line.length > 200 ? `${line.slice(0, 200)}…` : line}`;
}

/** A repository-relative path for a report's absolute file name. */
function relative(path) {
  const at = String(path).indexOf("/tests/");
  return at >= 0 ? String(path).slice(at + 1) : String(path);
}

/** The closing line: "N passed, N flaky, N failed" (and skipped when any). */
export function closingLine({ passed, flaky, failed, skipped }) {
  return `${passed} passed, ${flaky} flaky, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`;
}
