import { fireEvent, render, screen } from "@testing-library/react";
import { ConfigCheckPanel, groupFindings } from "./ConfigCheckPanel";
import { countsText, findingTarget } from "../configcheck/targets";
import { ApiError } from "../../../lib/api/errors";
import type { CheckResult } from "../api/scenarios";

const nodes = [
  { id: "h0", kind: "host" }, { id: "h1", kind: "host" },
  { id: "leaf0", kind: "switch" }, { id: "spine0", kind: "switch" },
];
const links = [{ a: "h0", b: "leaf0" }, { a: "h1", b: "leaf0" }, { a: "leaf0", b: "spine0" }];

describe("findingTarget", () => {
  it("selects the link of a single port", () => {
    expect(findingTarget(["h1->leaf0"], nodes, links)).toEqual({ nodes: [], link: 1 });
    // the direction does not matter for which cable it is
    expect(findingTarget(["spine0->leaf0"], nodes, links)).toEqual({ nodes: [], link: 2 });
  });
  it("selects the switches of several ports and bare node ids", () => {
    expect(findingTarget(["h0->leaf0", "leaf0->spine0"], nodes, links)).toEqual({ nodes: ["leaf0", "spine0"], link: null });
    expect(findingTarget(["h0", "spine0", "nowhere"], nodes, links)).toEqual({ nodes: ["h0", "spine0"], link: null });
  });
});

describe("countsText", () => {
  it("names each severity with its count", () => {
    expect(countsText({ error: 1, warning: 2, info: 0 })).toBe("1 error, 2 warnings");
    expect(countsText({ error: 0, warning: 0, info: 0 })).toBe("no findings");
  });
});

const result: CheckResult = {
  counts: { error: 1, warning: 1, info: 0 },
  effective: [{ node: "leaf0", param: "pfc.alpha", intended: 0.0625, effective: 0.015625, from_us: 1000, until_us: null }],
  findings: [
    { severity: "warning", rule: "qp_depth_below_bdp", where: ["h0"], numbers: { window_bytes: 4096 }, message: "window below BDP", fix: "raise nic.qp_depth" },
    { severity: "error", rule: "headroom_below_cable", where: ["h1->leaf0"], numbers: { headroom_bytes: 20000, required_bytes: 39728 },
      message: "headroom 20000 B < 39728 B", fix: "set switch.pfc.headroom_bytes to at least 39728 (or \"auto\")" },
  ],
};

describe("ConfigCheckPanel", () => {
  it("lists errors first with their numbers and fix, and shows a finding on request", () => {
    const onShow = vi.fn();
    render(<ConfigCheckPanel result={result} error={null} checking={false} onShow={onShow} />);
    expect(screen.getByTestId("config-check-summary")).toHaveTextContent("1 error, 1 warning");
    const items = screen.getAllByRole("listitem");
    expect(items[0]).toHaveTextContent("PFC headroom below what the cable needs");
    expect(items[0]).toHaveTextContent("h1->leaf0");
    expect(items[0]).toHaveTextContent("required bytes 39,728");
    expect(items[0]).toHaveTextContent("Fix: set switch.pfc.headroom_bytes to at least 39728");
    expect(items[1]).toHaveTextContent("QP depth below the path's BDP");
    fireEvent.click(screen.getByRole("button", { name: /PFC headroom/ }));
    expect(onShow).toHaveBeenCalledWith(expect.objectContaining({ rule: "headroom_below_cable", where: ["h1->leaf0"], count: 1 }));
    expect(screen.getByRole("table", { name: "Effective configuration changes" })).toHaveTextContent("0.01563");
  });
  it("asks for valid fields when the check answers 422", () => {
    render(<ConfigCheckPanel result={undefined} error={new ApiError(422, "invalid")} checking={false} onShow={() => {}} />);
    expect(screen.getByRole("status")).toHaveTextContent("Fix the highlighted fields first");
  });
});

describe("groupFindings", () => {
  it("makes one item of the same rule and fix at many ports, keeping different fixes apart", async () => {
    const { groupFindings } = await import("./ConfigCheckPanel");
    const f = (where: string, fix: string) => ({ severity: "error" as const, rule: "headroom_below_cable", where: [where], numbers: {}, message: where, fix });
    const g = groupFindings([f("h0->leaf0", "A"), f("h1->leaf0", "A"), f("spine0->leaf0", "B"), f("h1->leaf0", "A")]);
    expect(g.map((x) => [x.where, x.count, x.message])).toEqual([[["h0->leaf0", "h1->leaf0"], 3, "h0->leaf0"], [["spine0->leaf0"], 1, "spine0->leaf0"]]);
  });
});

describe("the collective findings", () => {
  // `fabricsim check` of a hierarchical all-reduce over leaf_spine {leaves: 2, spines: 1, hosts_per_leaf: 2} (2:1)
  const collective: CheckResult = JSON.parse(String.raw`{"findings":[{"severity":"warning","rule":"collective_no_nvlink","where":["h0"],"numbers":{"ranks":4,"servers":4},"message":"job 'a': every host is its own server (this fabric's hosts name none): no NVLink steps, every step crosses the fabric; hierarchical has no level inside a server","fix":"use a rail_optimized topology (or explicit hosts with ` + "`server`" + String.raw`) for GPUs that share a server"},{"severity":"warning","rule":"collective_oversubscribed","where":["leaf0","leaf1"],"numbers":{"leaves":2,"oversubscription":2,"ranks":4},"message":"job 'a' spans 2 leaves of a fabric oversubscribed 2:1: ranks under one leaf sending across leaves at once get 1/2 of their NIC rate through its uplinks","fix":"place the job under fewer leaves (placement packed, fewer servers) or add uplink capacity (more spines, faster fabric links) to reach 1:1"}],"counts":{"error":0,"warning":2,"info":0},"effective":[]}`);
  it("have titles, their leaves and their numbers", () => {
    const onShow = vi.fn();
    render(<ConfigCheckPanel result={collective} error={null} checking={false} onShow={onShow} />);
    expect(screen.getByTestId("config-check-summary")).toHaveTextContent("2 warnings");
    expect(screen.getByRole("button", { name: /Collective with one rank per server: no NVLink steps/ })).toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: /Collective across the leaves of an oversubscribed fabric/ }));
    expect(onShow).toHaveBeenCalledWith(expect.objectContaining({ where: ["leaf0", "leaf1"] }));
    expect(screen.getByText("leaves 2 · oversubscription 2 · ranks 4")).toBeInTheDocument();
  });
  it("stay one per job: two jobs with the same fix are not merged", () => {
    const [, over] = collective.findings;
    const jobB = { ...over, message: over.message.replace("job 'a'", "job 'b'") };
    expect(groupFindings([over, jobB]).map((g) => [g.message.slice(0, 7), g.count])).toEqual([["job 'a'", 1], ["job 'b'", 1]]);
    // other rules still group one finding per port into one item
    expect(groupFindings([result.findings[0], { ...result.findings[0], where: ["h1"] }])).toHaveLength(1);
  });
});

describe("the multi-plane finding", () => {
  // `fabricsim check` of multi_plane {planes: 4, units: 1, servers_per_unit: 2, nics_per_server: 1}, pairs h0 -> h1 with qps 2 (RC)
  const pinned: CheckResult = JSON.parse(String.raw`{"findings":[{"severity":"warning","rule":"multi_plane_qp_pinned","where":["h0->h1"],"numbers":{"nic_gbps":800,"plane_gbps":200,"planes":4,"qps":2},"message":"h0's NIC has 4 planes, but rc pins each QP to one: its 2 QPs to h1 can use at most 400 of its 800 Gbit/s","fix":"use nic.transport \"sprayed\" (each packet on a free plane) or at least 4 QPs per connection (qps; channels for a collective)"}],"counts":{"error":0,"warning":1,"info":0},"effective":[]}`);
  it("has its title, its connection and its numbers", () => {
    const onShow = vi.fn();
    render(<ConfigCheckPanel result={pinned} error={null} checking={false} onShow={onShow} />);
    expect(screen.getByTestId("config-check-summary")).toHaveTextContent("1 warning");
    fireEvent.click(screen.getByRole("button", { name: /Fewer QPs than planes: RC pins each QP to one plane/ }));
    expect(onShow).toHaveBeenCalledWith(expect.objectContaining({ where: ["h0->h1"] }));
    expect(screen.getByText("nic gbps 800 · plane gbps 200 · planes 4 · qps 2")).toBeInTheDocument();
  });
});

describe("issue 37's findings: a job that cannot finish, spraying with RC", () => {
  // `fabricsim check` of rail_optimized {units: 2, servers_per_unit: 4, nics_per_server: 8, spines: 4} with an
  // all-reduce of 64 MB over every host in 2,000 us, and of ai-moe-alltoall with switch.load_balancing per_packet
  const rail: CheckResult = JSON.parse(String.raw`{"findings":[{"severity":"warning","rule":"collective_exceeds_duration","where":["h0"],"numbers":{"duration_us":2000,"ideal_busbw_gbps":369.7,"ideal_us":2726.6,"iterations":1,"message_bytes":64000000,"start_us":0},"message":"job 'job0' cannot finish: even at its ideal busbw of 369.7 Gbit/s its iteration of 64,000,000 bytes takes 2,727 us, past the run's end at 2,000 us: its JCT and busbw would be dashes","fix":"set duration_us to at least 5,500 (twice the ideal: steps also pay latency and congestion) or lower its message_bytes"}],"counts":{"error":0,"warning":1,"info":0},"effective":[]}`);
  const spray: CheckResult = JSON.parse(String.raw`{"findings":[{"severity":"warning","rule":"spraying_with_rc","where":["leaf0_0","leaf0_1","leaf0_2","leaf0_3","leaf0_4","leaf0_5","leaf0_6","leaf0_7","leaf1_0","leaf1_1","leaf1_2","leaf1_3","leaf1_4","leaf1_5","leaf1_6","leaf1_7"],"numbers":{"senders":32,"switches":16},"message":"per-packet spraying at leaf0_0, leaf0_1, leaf0_2, leaf0_3 and 12 more sends one QP's packets over several paths, but 32 senders (h31->h0, ...) use the rc transport, which delivers in order only: a packet that overtakes another makes the receiver NACK the gap and the sender go back N, resending everything after it","fix":"set nic.transport to \"sprayed\" (a reorder window and selective ACKs; or \"erd\"), or keep switch.load_balancing \"ecmp\" for in-order transports"}],"counts":{"error":0,"warning":1,"info":0},"effective":[]}`);
  it("say before the run that the job's ideal time is past the run's end, and how long to run", () => {
    const onShow = vi.fn();
    render(<ConfigCheckPanel result={rail} error={null} checking={false} onShow={onShow} />);
    expect(screen.getByTestId("config-check-summary")).toHaveTextContent("1 warning");
    fireEvent.click(screen.getByRole("button", { name: /Collective that cannot finish before the run ends/ }));
    expect(onShow).toHaveBeenCalledWith(expect.objectContaining({ where: ["h0"] }));
    expect(screen.getByText(/takes 2,727 us, past the run's end at 2,000 us/)).toBeInTheDocument();
    expect(screen.getByText(/set duration_us to at least 5,500/)).toBeInTheDocument();
  });
  it("name the spraying switches and the go-back-N, and suggest the sprayed transport", () => {
    const onShow = vi.fn();
    render(<ConfigCheckPanel result={spray} error={null} checking={false} onShow={onShow} />);
    fireEvent.click(screen.getByRole("button", { name: /Packet spraying with an in-order transport \(go-back-N\)/ }));
    expect(onShow).toHaveBeenCalledWith(expect.objectContaining({ where: expect.arrayContaining(["leaf0_0", "leaf1_7"]) }));
    expect(screen.getByText(/go back N/)).toBeInTheDocument();
    expect(screen.getByText(/set nic.transport to "sprayed"/)).toBeInTheDocument();
  });
});
