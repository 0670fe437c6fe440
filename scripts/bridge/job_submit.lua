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

-- What an operator's hold leaves in AdminComment instead of the bridge's record.
local operator_note = "held by an operator (was waiting for the hetsched bridge)"

-- The bridge's record of a job still waiting for it (held or refused; not a pinned job,
-- whose record keeps the request the user submitted).
local function waiting_for_bridge(record)
  if record == nil then return false end
  return string.find(record, "^hetsched:v1;phase=held") ~= nil or
         string.find(record, "^hetsched:v1;phase=refused") ~= nil
end

-- `scontrol hold` by root of a job waiting for the bridge. Such a job is already held
-- (JobHeldAdmin, priority 0), so the hold changes nothing Slurm shows, and the bridge
-- would start it. Dropping the bridge's record leaves it to the operator: the bridge never
-- touches an operator-held job without its record, and once released it is Slurm's own.
-- (The bridge never sets priority 0 on such a job itself; it re-holds only jobs it
-- released, with `scontrol uhold`, and their record is a pinned one.)
function slurm_job_modify(job_desc, job_rec, part_list, modify_uid)
  if modify_uid == 0 and job_desc.priority == 0 and waiting_for_bridge(job_rec.admin_comment) then
    job_desc.admin_comment = operator_note
    slurm.log_info("hetsched: job %u held by an operator: left to the operator, not the bridge",
                   job_rec.job_id)
  end
  return slurm.SUCCESS
end

return slurm.SUCCESS
