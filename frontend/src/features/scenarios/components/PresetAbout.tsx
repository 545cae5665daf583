import { useScenario } from "../../../lib/api/queries";
import { usePresets, type Preset } from "../api/scenarios";

interface ScenarioRef { preset_key?: string | null; parent_id?: string | null }

/** The preset a scenario is, or was forked from (its parent's preset): its description applies to both. */
export function usePresetOf(scenario: ScenarioRef | undefined): { preset: Preset | undefined; forked: boolean } {
  const presets = usePresets();
  const parent = useScenario(scenario && !scenario.preset_key ? scenario.parent_id ?? undefined : undefined);
  const key = scenario?.preset_key ?? parent.data?.preset_key ?? null;
  return { preset: key ? presets.data?.find((p) => p.key === key) : undefined, forked: !scenario?.preset_key && !!key };
}

/**
 * A preset's description whole (the home card cuts it to three lines): what it reproduces, the
 * question it asks and its answer. Collapsible, so a phone can fold it away; nothing for a
 * scenario that is no preset's.
 */
export function PresetAbout({ scenario }: { scenario: ScenarioRef | undefined }) {
  const { preset, forked } = usePresetOf(scenario);
  if (!preset) return null;
  return (
    <details className="preset-about" open data-testid="preset-about" data-preset={preset.key}>
      <summary>{forked ? "Forked from the preset" : "About the preset"} <strong>{preset.title}</strong></summary>
      <p>{preset.description}</p>
      {preset.source && <p className="hint">Source: {preset.source}</p>}
    </details>
  );
}
