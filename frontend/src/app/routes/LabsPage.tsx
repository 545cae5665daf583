import { useNavigate } from "react-router";
import { Empty, ErrorBox, Loading } from "../../components/States";
import { useLabs } from "../../features/labs/api/labs";
import { usePresets } from "../../features/scenarios/api/scenarios";
import { setActiveLab } from "../../features/labs/model/progress";

/** The labs of docs/labs: starting one opens it beside the editor with its preset loaded. */
export function LabsPage() {
  const labs = useLabs();
  const presets = usePresets();
  const navigate = useNavigate();
  if (labs.isLoading) return <Loading what="Loading labs" />;
  if (labs.error) return <ErrorBox error={labs.error} title="Could not load the labs" />;
  if (!labs.data?.length) return <Empty>No labs on this server.</Empty>;
  return (
    <div className="labs-page">
      <h1>Labs</h1>
      <p className="hint">Each lab opens beside the editor and the results. Its checklist ticks itself as you open the preset, change parameters and run; your predictions stay in this browser.</p>
      <ul className="preset-grid">
        {labs.data.map((l) => {
          const preset = presets.data?.find((p) => p.key === l.preset);
          return (
            <li key={l.slug} className="card" data-lab={l.slug}>
              <h3>{l.title}</h3>
              <p className="hint">Preset <code>{l.preset}</code> · {l.time}</p>
              <button type="button" className="primary" disabled={!preset} onClick={() => {
                setActiveLab(l.slug);
                if (preset) navigate(`/editor?preset=${encodeURIComponent(preset.key)}&from=${preset.scenario_id}`);
              }}>Start lab</button>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
