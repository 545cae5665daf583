import { Link, useNavigate } from "react-router";
import { Empty, ErrorBox, Loading } from "../../../components/States";
import { useCreateSweep } from "../../../lib/api/queries";
import { usePresets, type Preset } from "../api/scenarios";

/** Points of a comparison: the product of its parameters' value counts. */
export function comparisonPoints(comparison: NonNullable<Preset["comparison"]>): number {
  return comparison.parameters.reduce((n, p) => n * (p.values?.length ?? 0), 1);
}

/** Starts the preset's comparison as a sweep of its stored scenario and opens the sweep page. */
function RunComparison({ preset }: { preset: Preset & { comparison: NonNullable<Preset["comparison"]> } }) {
  const create = useCreateSweep();
  const navigate = useNavigate();
  const { comparison } = preset;
  return (
    <div className="preset-comparison">
      <button type="button" disabled={create.isPending} title={comparison.title}
        aria-label={`Run the comparison of ${preset.title}`}
        onClick={async () => {
          const sweep = await create.mutateAsync({ scenario_id: preset.scenario_id, seed: 1, parameters: comparison.parameters, linked: comparison.linked ?? [] });
          navigate(`/sweeps/${sweep.id}`);
        }}>
        {create.isPending ? "Starting…" : `Run the paper's comparison (${comparisonPoints(comparison)} runs)`}
      </button>
      {create.error && <ErrorBox error={create.error} title="Could not start the comparison" />}
    </div>
  );
}

/** One card per preset; `thumbnail` draws the preset's fabric (given by the page). */
export function PresetGallery({ thumbnail }: { thumbnail: (scenarioId: string) => React.ReactNode }) {
  const presets = usePresets();
  if (presets.isLoading) return <Loading what="Loading presets" />;
  if (presets.error) return <ErrorBox error={presets.error} title="Could not load the presets" />;
  if (!presets.data?.length) return <Empty>No presets are installed on this server.</Empty>;
  return (
    <ul className="preset-grid">
      {presets.data.map((p) => (
        <li key={p.key} className="card preset-card" data-preset={p.key}>
          <Link to={`/editor?preset=${encodeURIComponent(p.key)}&from=${p.scenario_id}`} aria-label={`Open preset ${p.title}`}>
            <div className="thumb">{thumbnail(p.scenario_id)}</div>
            <h3>{p.title}</h3>
          </Link>
          <p title={p.description}>{p.description}</p>
          <small>{p.topology_kind} · {p.hosts} hosts · {p.switches} switches</small>
          {p.comparison && <RunComparison preset={{ ...p, comparison: p.comparison }} />}
        </li>
      ))}
    </ul>
  );
}
