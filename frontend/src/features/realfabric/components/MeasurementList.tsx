import { Link } from "react-router";
import { useMeasurements } from "../api/realFabric";

/** The measurements attached to a saved scenario, each linking to its page. */
export function MeasurementList({ scenarioId }: { scenarioId: string | undefined }) {
  const list = useMeasurements(scenarioId);
  const rows = list.data?.data ?? [];
  if (!scenarioId || rows.length === 0) return null;
  return (
    <ul className="measurement-list" aria-label="Measurements of this scenario">
      {rows.map((m) => (
        <li key={m.id}><Link to={`/measurements/${m.id}`}>{m.name}</Link> <small>{m.tool}, {m.points} sizes</small></li>
      ))}
    </ul>
  );
}
