#include "scenario-error.h"

namespace fabric
{

namespace
{

std::string
DisplayPath(const std::string& path)
{
    return path.empty() ? std::string("(root)") : path;
}

} // namespace

ScenarioError::ScenarioError(const std::string& path, const std::string& message)
    : std::runtime_error(DisplayPath(path) + ": " + message),
      m_path(DisplayPath(path))
{
}

const std::string&
ScenarioError::Path() const
{
    return m_path;
}

std::string
JoinPath(const std::string& base, const std::string& key)
{
    return base.empty() ? key : base + "." + key;
}

std::string
IndexPath(const std::string& base, std::size_t index)
{
    return base + "[" + std::to_string(index) + "]";
}

} // namespace fabric
