import { fireEvent, render, screen } from "@testing-library/react";
import { GeneratorForm, toTopology } from "./GeneratorForm";

describe("DCI generator: the WAN accelerator switch", () => {
  it("writes topology.accelerator only when it is on", () => {
    expect(toTopology("dci", { length_km: 100, "accelerator.enabled": 1 }).accelerator).toEqual({ enabled: true });
    expect(toTopology("dci", { length_km: 100, "accelerator.enabled": 0 })).not.toHaveProperty("accelerator");
  });

  it("writes the buffer and timeout from the form; an emptied timeout takes the default", () => {
    const previous = { kind: "dci" as const, accelerator: { enabled: false, buffer_bytes: 65536, retransmit_timeout_us: 5000 } };
    const form = { "accelerator.enabled": 1, "accelerator.buffer_bytes": 1_048_576, "accelerator.retransmit_timeout_us": 2500 };
    expect(toTopology("dci", form, previous).accelerator).toEqual({ enabled: true, buffer_bytes: 1_048_576, retransmit_timeout_us: 2500 });
    // the user emptied the timeout field: the key is gone from the form values and from the document
    expect(toTopology("dci", { "accelerator.enabled": 0, "accelerator.buffer_bytes": 65536 }, previous).accelerator).toEqual({ enabled: false, buffer_bytes: 65536 });
  });

  it("loads the stored settings into fields shown only while the accelerator is on", async () => {
    const onGenerate = vi.fn();
    render(<GeneratorForm topology={{ kind: "dci", length_km: 100, accelerator: { enabled: false, buffer_bytes: 65536, retransmit_timeout_us: 5000 } }} onGenerate={onGenerate} />);
    expect(screen.queryByRole("spinbutton", { name: /^Accelerator buffer/ })).toBeNull();
    fireEvent.click(screen.getByRole("checkbox", { name: "RDMA WAN accelerator at the site edges" }));
    const buffer = screen.getByRole("spinbutton", { name: /^Accelerator buffer/ }) as HTMLInputElement;
    const timeout = screen.getByRole("spinbutton", { name: /^Resend timeout/ }) as HTMLInputElement;
    expect([buffer.value, timeout.value]).toEqual(["65536", "5000"]);
    fireEvent.change(buffer, { target: { value: "20000000" } });
    fireEvent.change(timeout, { target: { value: "" } });
    expect(timeout.placeholder).toBe("2 x long-haul RTT + 100");
    fireEvent.click(screen.getByRole("button", { name: "Generate" }));
    await vi.waitFor(() => expect(onGenerate).toHaveBeenCalled());
    expect(onGenerate.mock.calls[0][0].accelerator).toEqual({ enabled: true, buffer_bytes: 20_000_000 });
  });

  it("shows the stored state and generates with what the user ticked", async () => {
    const onGenerate = vi.fn();
    render(<GeneratorForm topology={{ kind: "dci", length_km: 100, accelerator: { enabled: true } }} onGenerate={onGenerate} />);
    const box = screen.getByRole("checkbox", { name: "RDMA WAN accelerator at the site edges" }) as HTMLInputElement;
    expect(box.checked).toBe(true);
    fireEvent.click(box);
    fireEvent.click(screen.getByRole("button", { name: "Generate" }));
    await vi.waitFor(() => expect(onGenerate).toHaveBeenCalled());
    expect(onGenerate.mock.calls[0][0].accelerator).toEqual({ enabled: false });
    fireEvent.click(box);
    fireEvent.click(screen.getByRole("button", { name: "Generate" }));
    await vi.waitFor(() => expect(onGenerate).toHaveBeenCalledTimes(2));
    expect(onGenerate.mock.calls[1][0]).toMatchObject({ kind: "dci", length_km: 100, accelerator: { enabled: true } });
  });
});

describe("Rail-optimized generator", () => {
  it("is offered, shows its fields and generates a rail_optimized topology from them", async () => {
    const onGenerate = vi.fn();
    render(<GeneratorForm topology={{ kind: "leaf_spine" }} onGenerate={onGenerate} />);
    const select = screen.getByRole("combobox", { name: "Generator kind" }) as HTMLSelectElement;
    expect([...select.options].map((o) => o.value)).toContain("rail_optimized");
    fireEvent.change(select, { target: { value: "rail_optimized" } });
    for (const name of [/^Scalable units/, /^Servers per unit/, /^NICs \(GPUs\) per server/, /^Spines/, /^NIC rate/, /^Leaf-spine rate/, /^NVLink per GPU/]) {
      expect(screen.getByRole("spinbutton", { name })).toBeTruthy();
    }
    // defaults: 2 units x 4 servers x 8 NICs = 64 hosts + 16 leaves + 4 spines; 4 x 400 / 4 x 400 = 1:1
    expect(screen.getByTestId("generator-size").textContent).toBe("84 nodes");
    expect(screen.getByTestId("generator-oversubscription").textContent).toContain("1:1");
    fireEvent.change(screen.getByRole("spinbutton", { name: /^Servers per unit/ }), { target: { value: "2" } });
    fireEvent.change(screen.getByRole("spinbutton", { name: /^NICs \(GPUs\) per server/ }), { target: { value: "2" } });
    fireEvent.change(screen.getByRole("spinbutton", { name: /^Spines/ }), { target: { value: "2" } });
    fireEvent.change(screen.getByRole("spinbutton", { name: /^Leaf-spine rate/ }), { target: { value: "200" } });
    // by hand: 2 x 2 x 2 = 8 hosts + 2 x 2 leaves + 2 spines = 14 nodes; 2 x 400 / (2 x 200) = 2:1
    expect(screen.getByTestId("generator-size").textContent).toBe("14 nodes");
    expect(screen.getByTestId("generator-oversubscription").textContent).toContain("2:1");
    fireEvent.click(screen.getByRole("button", { name: "Generate" }));
    await vi.waitFor(() => expect(onGenerate).toHaveBeenCalled());
    expect(onGenerate.mock.calls[0][0]).toEqual({
      kind: "rail_optimized", units: 2, servers_per_unit: 2, nics_per_server: 2, spines: 2,
      host_rate_gbps: 400, fabric_rate_gbps: 200, link_delay_us: 1, nvlink_gbps: 3600,
    });
  });

  it("loads a stored rail_optimized topology into its form", () => {
    render(<GeneratorForm topology={{ kind: "rail_optimized", servers_per_unit: 32, spines: 16 }} onGenerate={vi.fn()} />);
    expect((screen.getByRole("combobox", { name: "Generator kind" }) as HTMLSelectElement).value).toBe("rail_optimized");
    expect((screen.getByRole("spinbutton", { name: /^Servers per unit/ }) as HTMLInputElement).value).toBe("32");
    // 32 x 400 down, 16 x 400 up
    expect(screen.getByTestId("generator-oversubscription").textContent).toContain("2:1");
  });
});

describe("Multi-plane generator", () => {
  it("is offered, shows its fields and generates a multi_plane topology from them", async () => {
    const onGenerate = vi.fn();
    render(<GeneratorForm topology={{ kind: "leaf_spine" }} onGenerate={onGenerate} />);
    const select = screen.getByRole("combobox", { name: "Generator kind" }) as HTMLSelectElement;
    expect([...select.options].map((o) => o.value)).toContain("multi_plane");
    fireEvent.change(select, { target: { value: "multi_plane" } });
    for (const name of [/^Planes/, /^Scalable units/, /^Servers per unit/, /^NICs \(GPUs\) per server/, /^Spines per plane/, /^NIC port rate/, /^Leaf-spine rate/, /^NVLink per GPU/]) {
      expect(screen.getByRole("spinbutton", { name })).toBeTruthy();
    }
    // defaults: 1 unit x 4 servers x 2 NICs = 8 hosts; 4 planes x (2 leaves + 2 spines) = 16 switches;
    // each leaf 4 x 200 down over 2 x 200 up = 2:1; each NIC 4 x 200 = 800 Gbit/s
    expect(screen.getByTestId("generator-size").textContent).toBe("24 nodes");
    expect(screen.getByTestId("generator-oversubscription").textContent).toContain("2:1");
    expect(screen.getByTestId("generator-nic-rate").textContent).toContain("4 x 200 = 800 Gbit/s");
    fireEvent.change(screen.getByRole("spinbutton", { name: /^Planes/ }), { target: { value: "8" } });
    fireEvent.change(screen.getByRole("spinbutton", { name: /^NIC port rate/ }), { target: { value: "100" } });
    fireEvent.change(screen.getByRole("spinbutton", { name: /^Spines per plane/ }), { target: { value: "1" } });
    // by hand: 8 hosts + 8 planes x (2 leaves + 1 spine) = 32 nodes; 4 x 100 / (1 x 200) = 2:1
    expect(screen.getByTestId("generator-size").textContent).toBe("32 nodes");
    expect(screen.getByTestId("generator-nic-rate").textContent).toContain("8 x 100 = 800 Gbit/s");
    fireEvent.click(screen.getByRole("button", { name: "Generate" }));
    await vi.waitFor(() => expect(onGenerate).toHaveBeenCalled());
    expect(onGenerate.mock.calls[0][0]).toEqual({
      kind: "multi_plane", planes: 8, units: 1, servers_per_unit: 4, nics_per_server: 2, spines: 1,
      host_rate_gbps: 100, fabric_rate_gbps: 200, link_delay_us: 1, nvlink_gbps: 3600,
    });
  });

  it("loads a stored multi_plane topology into its form", () => {
    render(<GeneratorForm topology={{ kind: "multi_plane", planes: 2 }} onGenerate={vi.fn()} />);
    expect((screen.getByRole("combobox", { name: "Generator kind" }) as HTMLSelectElement).value).toBe("multi_plane");
    expect((screen.getByRole("spinbutton", { name: /^Planes/ }) as HTMLInputElement).value).toBe("2");
  });
});

describe("generator sizes (issue 22 §4)", () => {
  it("a fat tree with odd k says k must be even, never '62.5 nodes', and does not generate", () => {
    render(<GeneratorForm topology={{ kind: "fat_tree", k: 4 }} onGenerate={() => {}} />);
    fireEvent.change(screen.getByRole("spinbutton", { name: /^k \(even\)/ }), { target: { value: "5" } });
    expect(screen.getByTestId("generator-size")).toHaveTextContent("k must be even (got 5)");
    expect(screen.queryByText(/62.5/)).toBeNull();
    expect(screen.getByRole("button", { name: "Generate" })).toBeDisabled();
  });
  it("the DCI distance has a number box beside its slider", () => {
    render(<GeneratorForm topology={{ kind: "dci", length_km: 100 }} onGenerate={() => {}} />);
    fireEvent.change(screen.getByRole("spinbutton", { name: "DCI distance in km" }), { target: { value: "1000" } });
    expect(screen.getByRole("slider", { name: "DCI distance (km)" })).toHaveValue("1000");
    expect(screen.getByText(/Distance: 1000 km/)).toBeInTheDocument();
  });
});
