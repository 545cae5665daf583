import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { SettingsImport } from "./SettingsImport";

const imported = {
  report: [{ status: "mapped", source: "tor1.config_db.json: BUFFER_POOL|ingress_lossless_pool.size+xoff", value: "15069184",
             parameter: "switch.buffer_bytes", converted: 15069184, conversion: "shared pool + shared headroom pool", note: null }],
  counts: { read: 0, mapped: 1, ignored: 0, kept: 0 },
  scenario: { schema_version: 1, topology: { kind: "leaf_spine" }, switch: { buffer_bytes: 15069184 } },
};

// The generated client's POST, answered as openapi-fetch answers ({data} or {error} with the response).
const post = vi.hoisted(() => vi.fn());
vi.mock("../../../lib/api/client", async (original) => ({
  ...(await original<typeof import("../../../lib/api/client")>()),
  client: { POST: post, GET: vi.fn() },
}));

function answering(status: number, body: unknown) {
  const sent: unknown[] = [];
  post.mockImplementation(async (url: string, init: { params: unknown; body: unknown }) => {
    sent.push({ url, params: init.params, body: init.body });
    const response = new Response(null, { status });
    return status < 300 ? { data: body, response } : { error: body, response };
  });
  return sent;
}

function shell(onDoc = vi.fn()) {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <SettingsImport scenarioId={async () => "sc1"} onDoc={onDoc} />
    </QueryClientProvider>,
  );
  return onDoc;
}

afterEach(() => post.mockReset());

describe("SettingsImport", () => {
  it("previews the report, then applies the scenario it returned", async () => {
    const sent = answering(200, imported);
    const onDoc = shell();
    const preview = screen.getByRole("button", { name: "Preview the import" });
    expect(preview).toBeDisabled();
    await userEvent.upload(screen.getByLabelText("SONiC config_db.json files"), new File(['{"PORT": {}}'], "tor1.config_db.json"));
    await userEvent.upload(screen.getByLabelText("ConnectX sysfs dump"), new File(["roce_rp/rpg_ai_rate 5\n"], "eth2.txt"));
    expect(screen.getByTestId("settings-import-plan")).toHaveTextContent("1 config_db file (tor1.config_db.json) · NIC settings from eth2.txt.");
    await userEvent.click(preview);
    expect(await screen.findByRole("status")).toHaveTextContent("Read: 1 fields set parameters, 0 read, 0 ignored, 0 parameters kept.");
    expect(screen.getByRole("dialog", { name: "Import report" })).toBeInTheDocument();
    expect(sent).toEqual([{ url: "/api/v1/scenarios/{id}/settings/import", params: { path: { id: "sc1" } }, body: {
      sonic: [{ name: "tor1.config_db.json", text: '{"PORT": {}}' }], nic_sysfs: "roce_rp/rpg_ai_rate 5\n",
      nic_host: null, draw_topology: true, dry_run: true } }]);
    expect(screen.getByText("switch.buffer_bytes")).toBeInTheDocument();
    expect(onDoc).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole("button", { name: "Apply to the editor" }));
    expect(onDoc).toHaveBeenCalledWith(imported.scenario);
    expect(screen.queryByRole("dialog")).toBeNull();
    await userEvent.click(screen.getByRole("button", { name: "Show the report" }));
    expect(screen.getByRole("button", { name: "Applied" })).toBeDisabled();
  });

  it("shows the file's line when the import is refused", async () => {
    answering(422, { detail: [{ loc: ["body", "nic_sysfs"], msg: "line 2: roce_rp/rpg_hai_rate must be an integer, got 'fifty'", type: "import_error" }] });
    shell();
    await userEvent.upload(screen.getByLabelText("ConnectX sysfs dump"), new File(["x"], "bad.txt"));
    await userEvent.click(screen.getByRole("button", { name: "Preview the import" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("line 2: roce_rp/rpg_hai_rate must be an integer, got 'fifty'");
  });
});
