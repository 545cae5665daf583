import { Link } from "react-router";
import { Empty, ErrorBox, Loading } from "../../../components/States";
import { usePresets } from "../api/scenarios";

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
        </li>
      ))}
    </ul>
  );
}
