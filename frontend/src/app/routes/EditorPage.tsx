import { useEffect, useMemo, useState } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { ErrorBox, Loading } from "../../components/States";
import { scenarioDocument, useFabricGraph, useScenario } from "../../lib/api/queries";
import { fieldErrorMap } from "../../lib/api/fieldErrors";
import { explicitFrom, fromScenarioDocument, toScenarioDocument } from "../../features/scenarios/editor/model";
import { useEditor } from "../../features/scenarios/editor/useEditor";
import type { ExplicitLink } from "../../lib/scenario/types";
import { EditorCanvas } from "../../features/topology/components/EditorCanvas";
import { GeneratorForm } from "../../features/topology/components/GeneratorForm";
import { ImportExport, readImport } from "../../features/topology/components/ImportExport";
import { HpccImport } from "../../features/topology/components/HpccImport";
import { BulkSelect } from "../../features/topology/components/BulkSelect";
import { SelectionPanel } from "../../features/topology/components/SelectionPanel";
import { ParamsPanel } from "../../features/scenarios/components/ParamsPanel";
import { TrafficPanel } from "../../features/scenarios/components/TrafficPanel";
import { ShareButton } from "../../features/scenarios/components/ShareButton";
import type { PickRequest } from "../../features/scenarios/components/HostListField";
import { useConfigCheck, useEstimate, useSaveScenario, useValidateScenario } from "../../features/scenarios/api/scenarios";
import { EstimatePanel } from "../../features/scenarios/components/EstimatePanel";
import { ConfigCheckPanel } from "../../features/scenarios/components/ConfigCheckPanel";
import { PresetAbout } from "../../features/scenarios/components/PresetAbout";
import { forkName } from "../../lib/scenario/forkName";
import { countsText, findingTarget } from "../../features/scenarios/configcheck/targets";
import { useDebounced } from "../../lib/hooks/useDebounced";
import { RunLauncher } from "../../features/runs/components/RunLauncher";
import { type Engine, useCreateRuns, useRunLimits } from "../../features/runs/api/runs";
import { trafficHosts } from "../../lib/scenario/trafficHosts";
import { crossFieldErrors } from "../../features/scenarios/editor/checks";
import { rememberRun } from "../../lib/localWork/localWork";
import { labSignal } from "../../features/labs/model/progress";
import { useUnsavedWarning } from "../../features/scenarios/editor/useUnsavedWarning";
import { CanvasMessages, isDrawingHint } from "../../features/topology/components/CanvasMessages";
import { fabricStats, unlinkedNodes } from "../../lib/topology/stats";
import { useQueryClient } from "@tanstack/react-query";
import { expandTopology } from "../../lib/api/queries";
import type { GeneratorTopology, Scenario } from "../../lib/scenario/types";
import { acceleratorBadges } from "../../lib/topology/accelerator";
import { MeasurementImport } from "../../features/realfabric/components/MeasurementImport";
import { MeasurementList } from "../../features/realfabric/components/MeasurementList";
import { SettingsImport } from "../../features/realfabric/components/SettingsImport";
import { SettingsExport } from "../../features/realfabric/components/SettingsExport";

export function EditorPage() {
  const [params] = useSearchParams();
  const fromId = params.get("from") ?? undefined;
  const source = useScenario(fromId);
  const ed = useEditor();
  const { state, dispatch } = ed;
  const doc = state.doc;
  const navigate = useNavigate();
  const [loadedKey, setLoadedKey] = useState<string>("new");

  useEffect(() => {
    const d = scenarioDocument(source.data);
    if (d && source.data && loadedKey !== source.data.id) {
      dispatch({ type: "load", state: fromScenarioDocument(d, source.data.id) });
      setLoadedKey(source.data.id);
      const preset = params.get("preset");
      if (preset && source.data.preset_key === preset) labSignal({ kind: "preset_opened", preset });
    }
  }, [source.data, loadedKey, dispatch, params]);

  const { graph, stats, error: expandError, isLoading: expanding } = useFabricGraph(doc.topology);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [linkIndex, setLinkIndex] = useState<number | null>(null);
  const [picking, setPicking] = useState<PickRequest | null>(null);
  const [fitKey, setFitKey] = useState(0);
  const save = useSaveScenario();
  const runs = useCreateRuns();
  const runLimits = useRunLimits();
  const validate = useValidateScenario();

  // inline errors: validate a moment after the last edit
  const docJson = JSON.stringify(toScenarioDocument(state));
  useEffect(() => labSignal({ kind: "doc", doc: JSON.parse(docJson) }), [docJson]);
  const [validatedJson, setValidatedJson] = useState("");
  useEffect(() => {
    const t = setTimeout(() => validate.mutate(JSON.parse(docJson), { onSettled: () => setValidatedJson(docJson) }), 600);
    return () => clearTimeout(t);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [docJson]);
  // the configuration check follows the edits too (one simulator call per pause in typing)
  const checkJson = useDebounced(docJson, 600);
  const check = useConfigCheck(checkJson);
  // the flow-level estimate of the same debounced document (POST /estimate)
  const estimate = useEstimate(checkJson);
  const crossField = useMemo(() => crossFieldErrors(doc), [doc]);
  const errors = useMemo(
    // the API's own message for a field wins: it names the allowed range ("at most 1,000,000,000
    // bytes"), which a cross-field message ("must not exceed ECN Kmax") would hide
    () => ({ ...crossField, ...fieldErrorMap(validate.error), ...fieldErrorMap(save.error) }),
    [validate.error, save.error, crossField],
  );
  // a node not linked yet is a hint while drawing, not a reason to refuse the run button's look
  const blocking = Object.entries(errors).filter(([, m]) => !isDrawingHint(m));
  const unsettled = validate.isPending || docJson !== validatedJson;
  const unsaved = useUnsavedWarning(state.dirty);
  const queryClient = useQueryClient();
  /** Expands a generated fabric first: a fabric the API refuses never replaces the canvas. */
  const generate = async (t: GeneratorTopology) => {
    await queryClient.fetchQuery({ queryKey: ["expand", t], queryFn: () => expandTopology(t), staleTime: Infinity });
    dispatch({ type: "setTopology", topology: t });
    setSelected(new Set());
    setLinkIndex(null);
    setFitKey((k) => k + 1);
  };

  const ensureSaved = async () => {
    if (state.sourceId && !state.dirty) return state.sourceId;
    const doc = toScenarioDocument(state);
    // a fork whose author kept the original's name is named by what changed: a comparison of the
    // two runs then shows two names, not one twice
    const base = scenarioDocument(source.data);
    if (state.sourceId && state.sourceId === source.data?.id && base && doc.name === base.name) {
      doc.name = forkName(base.name ?? "", base, doc);
      dispatch({ type: "setField", path: "name", value: doc.name });
    }
    const created = await save.mutateAsync({ doc, parentId: state.sourceId });
    dispatch({ type: "saved", sourceId: created.id });
    unsaved.saved(); // the navigation that follows (run, sweep, tune) leaves without a prompt
    return created.id;
  };
  const run = async (seeds: number[], threads?: number, engine?: Engine) => {
    const id = await ensureSaved();
    const res = await runs.mutateAsync({ scenarioId: id, seeds, threads, engine });
    for (const r of res.data) rememberRun(r.id, id);
    navigate(`/runs/${res.data[0].id}`);
  };
  const g = graph;
  const explicitLinks: ExplicitLink[] = doc.topology.kind === "explicit" ? doc.topology.links : (g?.links ?? []);
  const shownStats = stats ?? (g ? fabricStats(g) : undefined);
  const unlinked = useMemo(() => (g ? unlinkedNodes(g) : []), [g]);
  const canvasMessages = Object.entries(errors)
    .filter(([k]) => k === "topology" || k.startsWith("topology."))
    .map(([k, m]) => {
      const link = /^topology\.links\.(\d+)/.exec(k);
      const l = link ? explicitLinks[Number(link[1])] : undefined;
      const text = isDrawingHint(m) && unlinked.length ? `${unlinked.slice(0, 4).join(", ")}${unlinked.length > 4 ? ` and ${unlinked.length - 4} more` : ""} ${unlinked.length === 1 ? "has" : "have"} no links` : m;
      return { path: k, text: l ? `Link ${l.a} ↔ ${l.b}: ${m}` : text, link: link ? Number(link[1]) : undefined };
    });
  const selectLink = (i: number) => { setSelected(new Set()); setLinkIndex(i); };
  const [importError, setImportError] = useState<string | null>(null);
  /** An imported file replaces the document or its topology as one undoable edit. */
  const importFile = (name: string, text: string) => {
    try {
      const got = readImport(name, text);
      if ("doc" in got) dispatch({ type: "replaceDocument", doc: got.doc });
      else dispatch({ type: "setTopology", topology: got.topology });
      setImportError(null);
      setSelected(new Set());
      setLinkIndex(null);
      setFitKey((k) => k + 1);
    } catch (e) {
      setImportError(`${name}: ${(e as Error).message}`);
    }
  };
  const highlighted = useMemo(() => trafficHosts(doc.traffic ?? []), [doc.traffic]);
  /** An imported document (HPCC flows, switch and NIC settings) replaces this one, undoably. */
  const replaceDoc = (d: Scenario) => {
    dispatch({ type: "replaceDocument", doc: d });
    setSelected(new Set());
    setLinkIndex(null);
    setFitKey((k) => k + 1);
  };

  if (fromId && source.error) return <ErrorBox error={source.error} title="Could not load the scenario" />;
  if (fromId && loadedKey !== fromId) return <Loading what="Loading the scenario" />;
  return (
    <div className="editor-page"
      onDragOver={(e) => { if (e.dataTransfer.types.includes("Files")) e.preventDefault(); }}
      onDrop={(e) => {
        const f = e.dataTransfer.files?.[0];
        if (!f) return;
        e.preventDefault();
        void f.text().then((t) => importFile(f.name, t));
      }}>
      <div className="page-bar row">
        <h1>{doc.name || "Untitled fabric"}</h1>
        {state.dirty && <span className="badge">edited</span>}
        <span className="grow" />
        {blocking.length > 0 && <span className="run-blocked" role="status">Fix {blocking.length === 1 ? "1 field" : `${blocking.length} fields`} to run</span>}
        <RunLauncher busy={save.isPending || runs.isPending} onRun={(s, t, e) => void run(s, t, e).catch(() => {})} defaultSeed={doc.seed ?? 1}
          maxThreads={runLimits.data?.max_threads} maxSeeds={runLimits.data?.max_seeds}
          disabledReason={blocking.length > 0 ? `Fix first: ${blocking.map(([, m]) => m).join("; ")}` : unsettled ? "Checking the scenario…" : undefined}
          warning={(doc.traffic ?? []).length === 0 ? "This fabric has no traffic: the run will show empty charts. Add a generator in the Traffic panel, or press again to run anyway." : null} />
        <button type="button" onClick={() => void ensureSaved().then((id) => navigate(`/sweeps/new?scenario=${id}`)).catch(() => {})}>Sweep…</button>
        <button type="button" onClick={() => void ensureSaved().then((id) => navigate(`/tunings/new?scenario=${id}`)).catch(() => {})}>Tune…</button>
        <ShareButton save={ensureSaved} />
      </div>
      <ErrorBox error={source.error} title="Could not load the scenario" />
      <ErrorBox error={save.error ?? runs.error} title="Could not start" />
      <PresetAbout scenario={source.data} />
      <div className="editor-grid">
        <aside className="panel left" aria-label="Fabric">
          <details open>
            <summary>Generator</summary>
            <GeneratorForm key={loadedKey} topology={doc.topology} onGenerate={generate} />
            {doc.topology.kind === "explicit" && <p className="hint">Explicit fabric ({doc.topology.nodes.length} nodes): generating replaces it.</p>}
          </details>
          <details>
            <summary>Import / export</summary>
            <ImportExport doc={toScenarioDocument(state)} explicit={() => (g ? explicitFrom(doc.topology, g) : null)} onImport={importFile} />
            {importError && <p className="field-error" role="alert">Not imported: {importError}</p>}
            <HpccImport doc={toScenarioDocument(state)} onDoc={replaceDoc} />
          </details>
          <details>
            <summary>Real fabric</summary>
            <MeasurementImport scenarioId={ensureSaved} onImported={(m) => navigate(`/measurements/${m.id}`)} />
            <MeasurementList scenarioId={state.sourceId ?? undefined} />
            <SettingsImport scenarioId={ensureSaved} onDoc={replaceDoc} />
            <SettingsExport source={{ kind: "scenario", scenarioId: ensureSaved }} />
          </details>
          <ParamsPanel doc={doc} errors={errors} onSet={(path, value) => dispatch({ type: "setField", path, value })} />
        </aside>
        <section className="canvas-col" aria-label="Canvas">
          {expanding && <Loading what="Expanding the fabric" />}
          <ErrorBox error={expandError} title="The topology is invalid" />
          {g && (
            <EditorCanvas
              graph={g}
              fitKey={`${loadedKey}-${fitKey}`}
              selected={selected}
              selectedLink={linkIndex}
              overlay={<CanvasMessages messages={canvasMessages} onSelectLink={selectLink} />}
              badges={acceleratorBadges(doc.topology)}
              highlighted={highlighted}
              picking={picking && {
                label: picking.label,
                onPick: (id) => {
                  if (!g.nodes.some((n) => n.id === id && n.kind === "host")) return;
                  dispatch({ type: "pickTrafficHost", index: picking.index, field: picking.field, id, mode: picking.mode });
                  if (picking.mode === "set") setPicking(null);
                },
                onDone: () => setPicking(null),
              }}
              canUndo={ed.canUndo}
              canRedo={ed.canRedo}
              onSelect={(ids, additive) => setSelected((cur) => {
                if (!additive) return new Set(ids);
                const next = new Set(cur);
                for (const id of ids) if (next.has(id) && ids.length === 1) next.delete(id); else next.add(id);
                return next;
              })}
              onSelectLink={setLinkIndex}
              onAddNode={(kind, x, y) => dispatch({ type: "addNode", kind, x, y, graph: g })}
              onAddLink={(a, b) => dispatch({ type: "addLink", a, b, graph: g })}
              onMove={(positions) => dispatch({ type: "moveNodes", positions, graph: g })}
              onDelete={() => {
                dispatch({ type: "deleteNodes", ids: [...selected], graph: g });
                setSelected(new Set());
              }}
              onUndo={ed.undo}
              onRedo={ed.redo}
            />
          )}
          {shownStats && (
            <p className="hint" data-testid="fabric-stats">
              {shownStats.hosts} hosts · {shownStats.switches} switches · {shownStats.links} links
              {shownStats.oversubscription != null && <> · oversubscription {Number(shownStats.oversubscription).toFixed(2)}:1</>}
            </p>
          )}
        </section>
        <aside className="panel right" aria-label="Selection and traffic">
          <details open data-testid="estimate">
            <summary>Flow-level estimate</summary>
            <EstimatePanel result={estimate.data} error={estimate.error} estimating={estimate.isFetching || checkJson !== docJson}
              onRunPacket={() => void run([doc.seed ?? 1]).catch(() => {})} />
          </details>
          <details open data-testid="config-check">
            <summary>Configuration check{check.data ? ` (${countsText(check.data.counts)})` : ""}</summary>
            <ConfigCheckPanel result={check.data} error={check.error} checking={check.isFetching || checkJson !== docJson}
              onShow={(f) => {
                if (!g) return;
                const t = findingTarget(f.where, g.nodes, explicitLinks);
                setSelected(new Set(t.nodes));
                setLinkIndex(t.link);
              }} />
          </details>
          <details>
            <summary>Bulk select</summary>
            {g && <BulkSelect graph={g} onSelect={(ids) => { setLinkIndex(null); setSelected(new Set(ids)); }} />}
          </details>
          <details open>
            <summary>Selection</summary>
            {g && (
              <SelectionPanel
                graph={g}
                selected={[...selected]}
                link={linkIndex !== null && explicitLinks[linkIndex] ? { index: linkIndex, link: explicitLinks[linkIndex] } : null}
                switchDefaults={doc.switch ?? {}}
                nicDefaults={doc.nic ?? {}}
                switchOverrides={doc.switch_overrides ?? {}}
                nicOverrides={doc.nic_overrides ?? {}}
                errors={errors}
                onOverride={(scope, ids, path, value) => dispatch({ type: "setOverride", scope, ids, path, value })}
                onLinkChange={(index, patch) => dispatch({ type: "updateLinks", indices: [index], patch, graph: g })}
              />
            )}
          </details>
          <details open>
            <summary>Traffic</summary>
            <TrafficPanel
              traffic={doc.traffic ?? []}
              graph={g}
              errors={errors}
              onAdd={(gen) => dispatch({ type: "addTraffic", generator: gen })}
              onUpdate={(index, gen) => dispatch({ type: "updateTraffic", index, generator: gen })}
              onRemove={(index) => dispatch({ type: "removeTraffic", index })}
              onStartPick={setPicking}
            />
          </details>
        </aside>
      </div>
    </div>
  );
}
