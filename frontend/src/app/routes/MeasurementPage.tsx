import { useParams } from "react-router";
import { ErrorBox, Loading } from "../../components/States";
import { useMeasurement } from "../../features/realfabric/api/realFabric";
import { MeasurementView } from "../../features/realfabric/components/MeasurementView";

/** /measurements/:id — a real fabric's measurement beside its simulation. */
export function MeasurementPage() {
  const { id } = useParams();
  const m = useMeasurement(id);
  if (m.isLoading) return <Loading what="Loading the measurement" />;
  if (m.error || !m.data) return <ErrorBox error={m.error} title="Could not load the measurement" />;
  return (
    <div className="measurement-page">
      <div className="page-bar row">
        <h1>{m.data.name} <small className="muted-id">{m.data.id}</small></h1>
      </div>
      <MeasurementView m={m.data} />
    </div>
  );
}
