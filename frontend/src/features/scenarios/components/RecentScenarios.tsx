import { Link } from "react-router";
import { Empty, ErrorBox, Loading } from "../../../components/States";
import { useRecentScenarios } from "../api/scenarios";

export function RecentScenarios() {
  const q = useRecentScenarios();
  if (q.isLoading) return <Loading what="Loading recent scenarios" />;
  if (q.error) return <ErrorBox error={q.error} title="Could not load recent scenarios" />;
  const rows = q.data?.data ?? [];
  if (rows.length === 0) return <Empty>No saved scenarios yet. Start from a preset or a new fabric.</Empty>;
  return (
    <ul className="recent">
      {rows.map((s) => (
        <li key={s.id}>
          <Link to={`/s/${s.id}`}>{s.name || s.id}</Link>{" "}
          <small>{s.parent_id ? "edited copy · " : ""}saved {new Date(s.created_at).toLocaleString()}</small>
        </li>
      ))}
    </ul>
  );
}
