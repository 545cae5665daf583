#include "json-input.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <set>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace fabric
{

using nlohmann::json;

namespace
{

std::string
TooLarge(std::size_t cap)
{
    return "file is larger than " + std::to_string(cap) + " bytes (" +
           std::to_string(cap / (1024 * 1024)) + " MiB, the limit for a scenario)";
}

/** Printable ASCII only, at most maxLen characters: keeps an error message one clean line. */
std::string
Printable(const std::string& text, std::size_t maxLen = 160)
{
    std::string out;
    for (char c : text)
    {
        if (out.size() >= maxLen)
        {
            out += "...";
            break;
        }
        unsigned char u = static_cast<unsigned char>(c);
        out += (u >= 0x20 && u < 0x7f) ? c : '?';
    }
    return out;
}

/**
 * A SAX pass that builds nothing: it tracks the JSON path so that a duplicate key or a too
 * deep nesting is reported where it is, and it keeps the position of a syntax error.
 */
class StrictChecker : public nlohmann::json_sax<json>
{
  public:
    bool null() override { return Scalar(); }
    bool boolean(bool) override { return Scalar(); }
    bool number_integer(number_integer_t) override { return Scalar(); }
    bool number_unsigned(number_unsigned_t) override { return Scalar(); }
    bool number_float(number_float_t, const string_t&) override { return Scalar(); }
    bool string(string_t&) override { return Scalar(); }
    bool binary(binary_t&) override { return Scalar(); }

    bool start_object(std::size_t) override { return Open(true); }
    bool end_object() override { return Close(); }
    bool start_array(std::size_t) override { return Open(false); }
    bool end_array() override { return Close(); }

    bool key(string_t& k) override
    {
        Level& level = m_stack.back();
        if (!level.keys.insert(k).second)
        {
            m_errorPath = JoinPath(PathOf(m_stack.size() - 1), k);
            m_errorMessage = "duplicate key \"" + Printable(k, 64) +
                             "\" (each key may appear once in an object)";
            return false;
        }
        level.key = k;
        return true;
    }

    bool parse_error(std::size_t position,
                     const std::string& token,
                     const nlohmann::detail::exception& ex) override
    {
        m_syntaxError = true;
        m_position = position;
        m_token = token;
        m_id = ex.id;
        m_what = ex.what();
        return false;
    }

    bool m_syntaxError = false;
    std::size_t m_position = 0;
    std::string m_token;
    int m_id = 0;
    std::string m_what;
    std::string m_errorPath;    ///< set with m_errorMessage for duplicate keys / depth
    std::string m_errorMessage; ///< empty when the document passed

  private:
    struct Level
    {
        bool isObject = false;
        std::set<std::string> keys;
        std::string key;     ///< last key read (objects)
        std::size_t index = 0; ///< next element index (arrays)
    };

    bool Scalar()
    {
        Advance();
        return true;
    }

    bool Open(bool isObject)
    {
        if (m_stack.size() >= kMaxJsonDepth)
        {
            m_errorPath = PathOf(m_stack.size());
            m_errorMessage = "nested deeper than " + std::to_string(kMaxJsonDepth) + " levels";
            return false;
        }
        Level level;
        level.isObject = isObject;
        m_stack.push_back(std::move(level));
        return true;
    }

    bool Close()
    {
        m_stack.pop_back();
        Advance();
        return true;
    }

    /** A value ended: the enclosing list moves to its next index. */
    void Advance()
    {
        if (!m_stack.empty() && !m_stack.back().isObject)
        {
            ++m_stack.back().index;
        }
    }

    /** The path of the value being read inside the first `levels` levels. */
    std::string PathOf(std::size_t levels) const
    {
        std::string path;
        for (std::size_t i = 0; i < levels && i < m_stack.size(); ++i)
        {
            const Level& l = m_stack[i];
            path = l.isObject ? JoinPath(path, l.key) : IndexPath(path, l.index);
        }
        return path;
    }

    std::vector<Level> m_stack;
};

/** The reason part of a syntax error ("syntax error while parsing value - invalid literal"). */
std::string
SyntaxReason(const StrictChecker& c)
{
    if (c.m_id == 406)
    {
        return "number " + Printable(c.m_token, 40) + " is out of range";
    }
    // nlohmann: "[json.exception.parse_error.101] parse error at line 1, column 5: <reason>"
    std::size_t at = c.m_what.find("column ");
    std::size_t colon = at == std::string::npos ? std::string::npos : c.m_what.find(": ", at);
    std::string reason =
        colon == std::string::npos ? c.m_what : c.m_what.substr(colon + 2);
    return Printable(reason);
}

} // namespace

std::string
LineColumn(const std::string& bytes, std::size_t position)
{
    std::size_t line = 1;
    std::size_t column = 0;
    std::size_t end = position < bytes.size() ? position : bytes.size();
    for (std::size_t i = 0; i < end; ++i)
    {
        if (bytes[i] == '\n')
        {
            ++line;
            column = 0;
        }
        else
        {
            ++column;
        }
    }
    return "line " + std::to_string(line) + ", column " + std::to_string(column == 0 ? 1 : column);
}

std::string
ReadCappedFile(const std::string& path, std::size_t cap)
{
    std::string quoted = "\"" + Printable(path, 200) + "\"";
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
    {
        throw ScenarioError("", "cannot read file " + quoted + " (" + std::strerror(errno) + ")");
    }
    struct stat st
    {
    };
    if (::fstat(fd, &st) != 0)
    {
        ::close(fd);
        throw ScenarioError("", "cannot read file " + quoted);
    }
    if (S_ISDIR(st.st_mode))
    {
        ::close(fd);
        throw ScenarioError("", quoted + " is a directory, not a scenario file");
    }
    if (S_ISREG(st.st_mode) && static_cast<uint64_t>(st.st_size) > cap)
    {
        ::close(fd);
        throw ScenarioError("", TooLarge(cap));
    }
    // Devices and pipes have no size: read at most cap + 1 bytes, whatever they hold.
    std::string bytes;
    if (S_ISREG(st.st_mode))
    {
        bytes.reserve(static_cast<std::size_t>(st.st_size) + 1);
    }
    std::vector<char> chunk(1 << 16);
    while (bytes.size() <= cap)
    {
        std::size_t want = std::min(chunk.size(), cap + 1 - bytes.size());
        ssize_t got = ::read(fd, chunk.data(), want);
        if (got < 0 && errno == EINTR)
        {
            continue;
        }
        if (got < 0)
        {
            int err = errno;
            ::close(fd);
            throw ScenarioError("", "cannot read file " + quoted + " (" + std::strerror(err) + ")");
        }
        if (got == 0)
        {
            break;
        }
        bytes.append(chunk.data(), static_cast<std::size_t>(got));
    }
    ::close(fd);
    if (bytes.size() > cap)
    {
        throw ScenarioError("", TooLarge(cap));
    }
    return bytes;
}

json
ParseStrictJson(const std::string& bytes, std::size_t cap)
{
    if (bytes.size() > cap)
    {
        throw ScenarioError("", TooLarge(cap));
    }
    if (bytes.find_first_not_of(" \t\n\r") == std::string::npos)
    {
        throw ScenarioError("", "file is empty");
    }
    StrictChecker checker;
    bool ok = json::sax_parse(bytes, &checker, json::input_format_t::json, true);
    if (!checker.m_errorMessage.empty())
    {
        throw ScenarioError(checker.m_errorPath, checker.m_errorMessage);
    }
    if (!ok || checker.m_syntaxError)
    {
        throw ScenarioError("", "invalid JSON at " + LineColumn(bytes, checker.m_position) + ": " +
                                    SyntaxReason(checker));
    }
    try
    {
        return json::parse(bytes);
    }
    catch (const json::exception& e)
    {
        // The checker accepted the same bytes; this is a last line of defence.
        throw ScenarioError("", "invalid JSON (" + Printable(e.what()) + ")");
    }
}

} // namespace fabric
