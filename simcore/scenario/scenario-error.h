/*
 * Errors of the scenario layer: one line naming the JSON path and what is allowed.
 */
#ifndef FABRIC_SCENARIO_ERROR_H
#define FABRIC_SCENARIO_ERROR_H

#include <cstddef>
#include <stdexcept>
#include <string>

namespace fabric
{

/**
 * An invalid scenario. what() is the one-line message "<path>: <message>", where the path
 * is dotted with [i] for list indices ("topology.links[3].rate_gbps") or "(root)".
 */
class ScenarioError : public std::runtime_error
{
  public:
    ScenarioError(const std::string& path, const std::string& message);

    /** The JSON path ("(root)" for the document itself). */
    const std::string& Path() const;

  private:
    std::string m_path;
};

/** base + "." + key, or key alone when base is the root (empty). */
std::string JoinPath(const std::string& base, const std::string& key);

/** base + "[index]". */
std::string IndexPath(const std::string& base, std::size_t index);

} // namespace fabric

#endif
