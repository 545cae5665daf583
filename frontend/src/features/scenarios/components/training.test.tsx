import { useState } from "react";
import { fireEvent, render, screen, within } from "@testing-library/react";
import { TrafficPanel } from "./TrafficPanel";
import { tieredLayout } from "../../../lib/topology/layout";
import type { TrafficGenerator } from "../../../lib/scenario/types";
import type { ExpandNode } from "../../../lib/topology/types";
import { SCHEMA_RANGES, TRAINING_MODELS } from "../../../lib/scenario/contract.gen";
import { dimsText, jobRanks, newTrainingGenerator, productCheck, rangeText } from "../editor/training";
import { formatCount } from "../../../lib/format";

// 4 servers of 8 NICs: s0 = h0..h7, ..., s3 = h24..h31
const nodes: ExpandNode[] = [
  { id: "leaf0", kind: "switch", tier: 1 },
  ...Array.from({ length: 32 }, (_, h) => ({
    id: `h${h}`,
    kind: "host" as const,
    tier: 0,
    group: "leaf0",
    server: `s${h >> 3}`,
    rail: h % 8,
  })),
];
const graph = tieredLayout(nodes, []);

/** The panel holding its traffic, as the editor does, so typing updates what is shown. */
function Editor({ initial, errors = {} }: { initial: TrafficGenerator[]; errors?: Record<string, string> }) {
  const [traffic, setTraffic] = useState(initial);
  return (
    <>
      <TrafficPanel
        traffic={traffic}
        graph={graph}
        errors={errors}
        onAdd={(g) => setTraffic([...traffic, g])}
        onUpdate={(i, g) => setTraffic(traffic.map((t, j) => (j === i ? g : t)))}
        onRemove={vi.fn()}
        onStartPick={vi.fn()}
      />
      <pre data-testid="doc">{JSON.stringify(traffic)}</pre>
    </>
  );
}
const doc = () => JSON.parse(screen.getByTestId("doc").textContent!) as TrafficGenerator[];

describe("the training generator in the editor", () => {
  it("is offered, and adds the first public model with TP inside a server and DP across the rest", () => {
    render(<Editor initial={[]} />);
    fireEvent.change(screen.getByLabelText("Traffic kind"), { target: { value: "training" } });
    fireEvent.click(screen.getByRole("button", { name: "Add traffic" }));
    expect(doc()).toEqual([{ kind: "training", model: "llama3-8b", parallel: { tp: 8, pp: 1, dp: 4 } }]);
    expect(screen.getByTestId("training-0-product")).toHaveTextContent("8 × 1 × 4 = 32 ranks; the job has 32");
    expect(screen.getByTestId("training-0-product").getAttribute("data-ok")).toBe("true");
  });

  it("checks tp × pp × dp against the job's ranks as you type, with the counts", () => {
    render(<Editor initial={[{ kind: "training", model: "llama3-70b", parallel: { tp: 8, pp: 1, dp: 4 } }]} />);
    const product = () => screen.getByTestId("training-0-product");
    fireEvent.change(screen.getByLabelText(/^PP \(/), { target: { value: "4" } });
    expect(product()).toHaveTextContent("8 × 4 × 4 = 128 ranks; the job has 32");
    expect(product()).toHaveAttribute("role", "alert");
    fireEvent.change(screen.getByLabelText(/^DP \(data/), { target: { value: "1" } });
    expect(product()).toHaveTextContent("✓ 8 × 4 × 1 = 32 ranks; the job has 32");
    // two servers placed: 16 ranks
    fireEvent.change(screen.getByLabelText("Ranks"), { target: { value: "servers" } });
    expect(doc()[0]).toMatchObject({ servers: 2, placement: "packed" });
    expect(product()).toHaveTextContent("8 × 4 × 1 = 32 ranks; the job has 16");
    expect(doc()[0].parallel).toEqual({ tp: 8, pp: 4, dp: 1 });
  });

  it("says the counts in the brief's example", () => {
    const gen: TrafficGenerator = {
      kind: "training",
      model: "llama3-70b",
      parallel: { tp: 8, pp: 4, dp: 32 },
      servers: 64,
    };
    expect(productCheck(gen, 512)).toEqual({ ok: false, text: "8 × 4 × 32 = 1,024 ranks; the job has 512" });
    expect(jobRanks(gen, graph)).toBe(64 * 8);
    expect(productCheck({ kind: "training", model: "llama3-8b" }, 1).ok).toBe(true); // the contract's defaults: 1 × 1 × 1
  });

  it("shows each preset's dimensions from the contract's table, and a custom model's fields with their ranges", () => {
    render(<Editor initial={[{ kind: "training", model: "mixtral-8x7b", parallel: { tp: 8, dp: 4 } }]} />);
    const model = screen.getByLabelText("Model");
    expect(
      within(model)
        .getAllByRole("option")
        .map((o) => o.getAttribute("value")),
    ).toEqual([...Object.keys(TRAINING_MODELS), "custom"]);
    expect(screen.getByTestId("training-0-dims")).toHaveTextContent(dimsText(TRAINING_MODELS["mixtral-8x7b"]));
    expect(screen.getByTestId("training-0-dims")).toHaveTextContent(
      "32 layers, hidden 4,096, FFN 14,336, 32 heads, sequence 32,768, vocabulary 32,000; 8 experts, top 2",
    );
    fireEvent.change(model, { target: { value: "custom" } });
    // the custom model starts from the preset's dimensions
    expect(doc()[0].model).toEqual(TRAINING_MODELS["mixtral-8x7b"]);
    const layers = screen.getByLabelText(/^layers/);
    const r = SCHEMA_RANGES["TrainingModel.layers"];
    expect(layers.closest(".field")!.textContent).toContain(`${r.min} .. ${formatCount(r.max!)}`);
    fireEvent.change(layers, { target: { value: "48" } });
    expect((doc()[0].model as Record<string, number>).layers).toBe(48);
  });

  it("compute from the FLOP count or a time per layer; ranges from the contract, errors beside their fields", () => {
    render(
      <Editor
        initial={[{ kind: "training", model: "llama3-8b" }]}
        errors={{ "traffic.0.parallel.pp": "must divide the model's layers (32)" }}
      />,
    );
    const tflops = screen.getByLabelText(/^GPU peak/);
    expect(tflops).toHaveAttribute("placeholder", "989");
    expect(tflops.closest(".field")!.textContent).toContain(rangeText(SCHEMA_RANGES["TrainingGpu.tflops"]));
    expect(rangeText(SCHEMA_RANGES["TrainingGpu.mfu"])).toBe("above 0 up to 1");
    fireEvent.change(screen.getByLabelText("Compute time from"), { target: { value: "layer" } });
    expect(doc()[0]).toMatchObject({ compute_us_per_layer: 1000 });
    expect(screen.queryByLabelText(/^GPU peak/)).toBeNull();
    expect(screen.getByText("must divide the model's layers (32)").closest(".field")).toContainElement(
      screen.getByLabelText(/^PP \(/),
    );
    // shown once, beside its field, not again among the generator's other errors
    expect(screen.getAllByText("must divide the model's layers (32)")).toHaveLength(1);
    // a training job's QPs are its channels: no QPs-per-flow input
    expect(screen.queryByLabelText(/^QPs per flow/)).toBeNull();
  });

  it("a new generator's TP divides the hosts and the model's heads", () => {
    expect(newTrainingGenerator(12, 8)).toMatchObject({ parallel: { tp: 4, pp: 1, dp: 3 } });
    expect(newTrainingGenerator(5, 8)).toMatchObject({ parallel: { tp: 1, pp: 1, dp: 5 } });
  });

  it("the API's product refusal is not said twice beside the live check", () => {
    const refusal = { "traffic.0.parallel": "tp x pp x dp = 8 x 4 x 4 = 128, but the job has 32 ranks" };
    const { unmount } = render(
      <Editor
        initial={[{ kind: "training", model: "llama3-70b", parallel: { tp: 8, pp: 4, dp: 4 } }]}
        errors={refusal}
      />,
    );
    expect(screen.getByTestId("training-0-product")).toHaveTextContent("8 × 4 × 4 = 128 ranks; the job has 32");
    expect(screen.queryByText(refusal["traffic.0.parallel"])).toBeNull();
    unmount();
    // with the job's ranks unknown to the page, the API's word is shown
    render(
      <TrafficPanel
        traffic={[{ kind: "training", model: "llama3-70b", parallel: { tp: 8, pp: 4, dp: 4 } }]}
        graph={null}
        errors={refusal}
        onAdd={vi.fn()}
        onUpdate={vi.fn()}
        onRemove={vi.fn()}
        onStartPick={vi.fn()}
      />,
    );
    expect(screen.getByTestId("training-0-product")).toHaveTextContent("the job's ranks are not known here");
    expect(screen.getByText(refusal["traffic.0.parallel"])).toHaveClass("field-error");
  });
});
