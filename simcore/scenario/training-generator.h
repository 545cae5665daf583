/*
 * The `training` traffic generator (docs/scenario-format.md, "training"): a model and a
 * parallelism plan on a job's ranks (placed as collectives are), planned by training-plan.h and
 * turned into flows by the collective generator's EmitTransfers.
 */
#ifndef FABRIC_TRAINING_GENERATOR_H
#define FABRIC_TRAINING_GENERATOR_H

#include "collective-generator.h"

namespace fabric
{

/** Reads the training generator behind g and adds its flows, dependencies and job. */
void GenerateTraining(GeneratorContext& g, ServerPool& pool);

} // namespace fabric

#endif
