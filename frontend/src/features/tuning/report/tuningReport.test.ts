import { describe, expect, it } from "vitest";
import { buildTuningReportHtml, type TuningReportInput } from "./tuningReport";

const input = (over: Partial<TuningReportInput> = {}): TuningReportInput => ({
  title: "Tuning: <incast> ECN", tuningId: "t1", status: "SUCCEEDED", createdAt: "2026-11-23T18:00:00Z", finishedAt: "2026-11-23T18:02:00Z",
  scenarios: [{ id: "s1", name: "2-to-1 incast", contentHash: "c".repeat(64), document: { switch: { ecn: { kmin_bytes: 5000, kmax_bytes: 5500 } } } }],
  space: { parameters: [{ name: "kmin", path: "switch.ecn.kmin_bytes", unit: "bytes", values: [0, 2500, 5000] }], linked: ["switch.ecn.kmax_bytes = 1 × kmin + 500"], size: 3 },
  objectives: ["minimise fct_p99_us"], constraints: ["drops_total <= 0"], aggregate: "mean", seeds: [1, 2],
  strategies: [["strategy", "budget", "evaluations done"], ["grid", "3", "3 of 3"]],
  comparison: [["strategy", "evaluations", "fct_p99_us"], ["grid", "3", "812.4 ± 10.1"]],
  picks: [{ strategy: "grid", settings: "switch.ecn.kmin_bytes = 2500", objective: "812.4 ± 10.1",
    runs: [{ id: "r9", seed: 1, simulator: "fabricsim 0.3.1", scenarioSha256: "d".repeat(64) }] }],
  charts: [{ title: "Best fct_p99_us so far", svg: '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><path data-strategy="grid" d="M0,0L1,1"/></svg>' }],
  images: [],
  generatedAt: "2026-11-23T18:05:00Z",
  ...over,
});

describe("the tuning report", () => {
  it("holds the scenario, space, objective, table with CIs, picks with provenance and the charts", () => {
    const html = buildTuningReportHtml(input());
    expect(html).toContain("Tuning: &lt;incast&gt; ECN");
    expect(html).not.toContain("<incast>");
    expect(html).toContain("c".repeat(64)); // the scenario's content hash
    expect(html).toContain('<td class="p">switch.ecn.kmax_bytes</td><td>5500</td>');
    expect(html).toContain("<th>kmin</th><td>switch.ecn.kmin_bytes</td><td>bytes</td><td>0, 2500, 5000</td>");
    expect(html).toContain("switch.ecn.kmax_bytes = 1 × kmin + 500");
    expect(html).toContain("<li>minimise fct_p99_us</li>");
    expect(html).toContain("drops_total &lt;= 0");
    expect(html).toContain("<td>812.4 ± 10.1</td>");
    expect(html).toContain('<span data-field="simulator-version">fabricsim 0.3.1</span>');
    expect(html).toContain("d".repeat(64)); // the pick run's scenario hash
    expect(html).toContain('<path data-strategy="grid"');
    expect(html).not.toContain("<?xml");
    expect(html).not.toMatch(/<script|<link |src="http|href="http/);
    expect(html).toContain("@media print");
  });

  it("shortens a long value list and says when a pick has no finished run", () => {
    const values = Array.from({ length: 40 }, (_, i) => i * 100);
    const html = buildTuningReportHtml(input({
      space: { parameters: [{ name: "kmin", path: "switch.ecn.kmin_bytes", unit: "bytes", values }], linked: [], size: 40 },
      picks: [{ strategy: "tpe", settings: "switch.ecn.kmin_bytes = 300", objective: "—", runs: [] }],
    }));
    expect(html).toContain("0, 100, 200, 300, 400, 500, … 3700, 3800, 3900 (40 values)");
    expect(html).toContain("No finished run.");
    expect(html).not.toContain("Linked:");
  });
});
