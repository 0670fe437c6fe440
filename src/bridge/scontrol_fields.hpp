#pragma once
// The `scontrol show ... --oneliner` format shared by jobs, nodes and reservations: one
// record per line, `Key=Value` tokens separated by spaces. A token without '=' continues the
// previous value (free text such as Command, Comment or a drain Reason may hold spaces).
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace hs::bridge {

struct Field {
  std::string key;
  std::string value;
};

std::vector<Field> split_fields(std::string_view line);

// Calls `record(line_number, fields)` for each non-blank line that is not Slurm's
// "No ... in the system" notice.
void for_each_record(std::string_view text,
                     const std::function<void(long, const std::vector<Field>&)>& record);

}  // namespace hs::bridge
