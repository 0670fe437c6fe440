-- hetsched bridge: hold every job of the managed partitions at submission, so that users
-- keep their sbatch habits and the bridge decides every start (docs/bridge.md).
-- Install: copy beside slurm.conf, set JobSubmitPlugins=lua, `scontrol reconfigure`.
-- Remove: drop JobSubmitPlugins=lua, `scontrol reconfigure`, then hand the held jobs back
-- with `hetsched bridge` stopped and `scontrol release` (docs/bridge.md, "Uninstalling").

-- Partitions the bridge manages, and the one jobs land in when they name none.
local managed = { lab = true }
local default_partition = "lab"

-- The bridge's record (src/bridge/job_marker.hpp): "held for the bridge".
local held_marker = "hetsched:v1;phase=held;at=0"

local function partitions_of(job_desc)
  local names = {}
  local given = job_desc.partition
  if given == nil or given == "" then given = default_partition end
  for name in string.gmatch(given, "[^,]+") do names[#names + 1] = name end
  return names
end

function slurm_job_submit(job_desc, part_list, submit_uid)
  for _, name in ipairs(partitions_of(job_desc)) do
    if managed[name] then
      job_desc.priority = 0
      job_desc.admin_comment = held_marker
      slurm.log_info("hetsched: job from uid %d held for the bridge (partition %s)", submit_uid, name)
      return slurm.SUCCESS
    end
  end
  return slurm.SUCCESS
end

function slurm_job_modify(job_desc, job_rec, part_list, modify_uid)
  return slurm.SUCCESS
end

return slurm.SUCCESS
