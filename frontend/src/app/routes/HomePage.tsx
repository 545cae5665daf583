import { Link } from "react-router";
import { PresetGallery } from "../../features/scenarios/components/PresetGallery";
import { RecentScenarios, RecentWork } from "../../features/scenarios/components/RecentScenarios";
import { TopologyThumbnail } from "../../features/topology/components/TopologyThumbnail";

export function HomePage() {
  return (
    <div className="home">
      <section className="hero row">
        <div>
          <h1>Design, run and compare RoCEv2 fabrics</h1>
          <p>Start from a preset experiment or draw your own fabric, then run it packet by packet and read the queues, pauses and flow completion times.</p>
        </div>
        <Link className="button primary" to="/editor">New fabric</Link>
      </section>
      <section>
        <h2>Presets</h2>
        <PresetGallery thumbnail={(id) => <TopologyThumbnail scenarioId={id} />} />
      </section>
      <section>
        <h2>My recent runs, sweeps and tunings</h2>
        <RecentWork />
      </section>
      <section>
        <h2>My scenarios</h2>
        <RecentScenarios />
      </section>
    </div>
  );
}
