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

-- What an operator's hold leaves in AdminComment instead of the bridge's record.
local operator_note = "held by an operator (was waiting for the hetsched bridge)"

-- A hold by the job's owner (`scontrol hold` once submitted; `sbatch -H` hands a job to the
-- bridge, as it does where this script is not installed) is written into the job's Comment,
-- the one field the bridge reads that a user may change (AdminComment is an operator's):
--   "[hetsched] held by its user" [" | was: " + the user's own comment, '%' and '=' escaped]
-- the form of the bridge's own refusals (src/bridge/job_lifecycle.hpp), so squeue shows it.
-- The bridge leaves such a job held; the owner's `scontrol release` gives it back to the bridge.
local bridge_comment_prefix = "[hetsched] "
local user_hold_comment = "[hetsched] held by its user"
local user_release_comment = "[hetsched] released by its user"
local user_comment_mark = " | was: "

-- `scontrol release` asks this priority.
local release_priority = 4294967295

-- ESLURM_TRANSITION_STATE_NO_UPDATE (slurm_errno.h; not among the lua plug-in's constants):
-- scontrol says "Job can not be altered now, try again later".
local try_again_later = 2020

local function starts_with(text, prefix)
  return text ~= nil and string.sub(text, 1, #prefix) == prefix
end

-- The user's own comment, escaped, inside a Comment the bridge or this script may have wrapped.
local function own_comment_escaped(comment)
  if comment == nil then return "" end
  if not starts_with(comment, bridge_comment_prefix) then
    return (string.gsub(string.gsub(comment, "%%", "%%25"), "=", "%%3D"))
  end
  local at = string.find(comment, user_comment_mark, 1, true)
  if at == nil then return "" end
  return string.sub(comment, at + #user_comment_mark)
end

local function unescaped(text)
  return (string.gsub(string.gsub(text, "%%3D", "="), "%%25", "%%"))
end

local function held_by_user_comment(comment)
  local own = own_comment_escaped(comment)
  if own == "" then return user_hold_comment end
  return user_hold_comment .. user_comment_mark .. own
end

-- The first managed partition of "a,b" (nil or "" = the default one), or nil.
local function managed_partition(partitions)
  if partitions == nil or partitions == "" then partitions = default_partition end
  for name in string.gmatch(partitions, "[^,]+") do
    if managed[name] then return name end
  end
  return nil
end

function slurm_job_submit(job_desc, part_list, submit_uid)
  local name = managed_partition(job_desc.partition)
  if name ~= nil then
    job_desc.priority = 0
    job_desc.admin_comment = held_marker
    slurm.log_info("hetsched: job from uid %d held for the bridge (partition %s)", submit_uid, name)
  end
  return slurm.SUCCESS
end

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
local function held_by_operator(job_desc, job_rec)
  job_desc.admin_comment = operator_note
  slurm.log_info("hetsched: job %u held by an operator: left to the operator, not the bridge",
                 job_rec.job_id)
end

-- `scontrol hold` by the job's owner. A job waiting for the bridge already reads JobHeldUser,
-- so the hold alone would change nothing the bridge sees. A pinned job keeps its record:
-- the bridge restores its request, then leaves it held.
local function held_by_owner(job_desc, job_rec)
  job_desc.comment = held_by_user_comment(job_desc.comment or job_rec.comment)
  slurm.log_info("hetsched: job %u held by its owner: the bridge waits for its release", job_rec.job_id)
end

-- `scontrol release` by the owner of a job they held: back to the bridge, still held, with
-- their comment back (a comment cannot be emptied from here: Slurm's lua ignores ""). A job
-- their hold kept out of reach after a move out of the managed partitions is simply released.
local function released_by_owner(job_desc, job_rec, to_bridge)
  local own = own_comment_escaped(job_rec.comment)
  job_desc.comment = own == "" and user_release_comment or unescaped(own)
  if not to_bridge then return end
  job_desc.priority = 0
  slurm.log_info("hetsched: job %u released by its owner: given back to the bridge", job_rec.job_id)
end

-- `scontrol update Partition=` of a pending job; whether it changed anything. Out of every
-- managed partition, a job held for the bridge would stay held where no bridge looks: it is
-- released, Slurm's own there. Into a managed one, a job Slurm would start is held for the
-- bridge, and a held one is taken as its owner's hold (started only once released).
local function moved(job_desc, job_rec, modify_uid)
  local from = managed_partition(job_rec.partition)
  local to = managed_partition(job_desc.partition)
  if from ~= nil and to == nil then
    if job_rec.priority ~= 0 or not waiting_for_bridge(job_rec.admin_comment) or
       starts_with(job_rec.comment, user_hold_comment) then
      return false
    end
    job_desc.priority = release_priority
    slurm.log_info("hetsched: job %u moved out of partition %s: released to Slurm", job_rec.job_id, from)
    return true
  end
  if from ~= nil or to == nil then return false end
  if job_rec.priority == 0 then
    job_desc.comment = held_by_user_comment(job_desc.comment or job_rec.comment)
  else
    job_desc.priority = 0
  end
  -- Only an operator may write AdminComment; a user's job held without it is the bridge's too.
  if modify_uid == 0 then job_desc.admin_comment = held_marker end
  slurm.log_info("hetsched: job %u moved into partition %s: held for the bridge", job_rec.job_id, to)
  return true
end

-- A job the bridge has pinned to the nodes it chose (from its release to its start, about a
-- second, or until the bridge restores the request of a start cut short) would take that
-- request out of the managed partitions, where no bridge restores it: such a move waits.
local function leaves_while_pinned(job_desc, job_rec)
  return managed_partition(job_rec.partition) ~= nil and managed_partition(job_desc.partition) == nil and
         starts_with(job_rec.admin_comment, "hetsched:v1;phase=pinned")
end

function slurm_job_modify(job_desc, job_rec, part_list, modify_uid)
  local pending = job_rec.job_state % 256 == 0  -- JOB_PENDING, below the state's flag bits
  if job_desc.partition ~= nil and pending and leaves_while_pinned(job_desc, job_rec) then
    slurm.log_info("hetsched: job %u not moved out of partition %s: pinned by the bridge", job_rec.job_id,
                   job_rec.partition)
    return try_again_later  -- (slurm.log_user is not supported in job_modify)
  end
  if job_desc.partition ~= nil and pending and moved(job_desc, job_rec, modify_uid) then
    return slurm.SUCCESS
  end
  local in_managed = managed_partition(job_desc.partition or job_rec.partition) ~= nil
  local by_owner = modify_uid ~= 0 and modify_uid == job_rec.user_id
  if job_desc.priority == 0 then
    if by_owner and in_managed then
      held_by_owner(job_desc, job_rec)
    elseif modify_uid == 0 and in_managed and waiting_for_bridge(job_rec.admin_comment) then
      held_by_operator(job_desc, job_rec)
    end
  elseif job_desc.priority == release_priority and by_owner and
         starts_with(job_rec.comment, user_hold_comment) then
    released_by_owner(job_desc, job_rec, in_managed)
  elseif job_desc.comment ~= nil and starts_with(job_rec.comment, user_hold_comment) and
         not starts_with(job_desc.comment, user_hold_comment) then
    -- A new comment while its owner holds it: kept behind the mark, which must stay.
    job_desc.comment = held_by_user_comment(job_desc.comment)
  end
  return slurm.SUCCESS
end

return slurm.SUCCESS
