#include "io/slurm_keys.hpp"

#include <set>

namespace hs {

bool is_scheduler_setting(const std::string& key) {
  static const std::set<std::string> keys = {
      "clustername",        "grestypes",          "schedulertype",
      "schedulerparameters", "schedulertimeslice", "prioritytype",
      "priorityflags",      "prioritydecayhalflife", "prioritycalcperiod",
      "prioritymaxage",     "priorityusageresetperiod", "priorityfavorsmall",
      "priorityparameters", "selecttype",         "selecttypeparameters",
      "topologyplugin",     "topologyparam",      "preempttype",
      "preemptmode",        "overtimelimit",      "killwait",
      "defmempercpu",       "defmempernode",      "maxmempercpu",
      "maxmempernode",      "enforcepartlimits",  "maxjobcount",
      "minjobage",          "fairsharedampeningfactor", "firstjobid",
      "maxtaskspernode",    "accountingstoragetype"};  // multifactor's age weight needs slurmdbd
  return keys.count(key) || key.starts_with("priorityweight");
}

bool is_daemon_setting(const std::string& key) {
  static const std::set<std::string> keys = {
      "slurmctldhost", "controlmachine", "controladdr", "backupcontroller", "backupaddr",
      "authtype", "authinfo", "authalttypes", "cryptotype", "credtype", "slurmuser",
      "slurmduser", "slurmctldport", "slurmdport", "slurmctldpidfile", "slurmdpidfile",
      "slurmctldlogfile", "slurmdlogfile", "slurmctlddebug", "slurmddebug", "slurmdspooldir",
      "statesavelocation", "proctracktype", "taskplugin", "taskpluginparam", "mpidefault",
      "switchtype", "returntoservice", "slurmctldtimeout", "slurmdtimeout", "inactivelimit",
      "messagetimeout", "waittime", "jobcomptype", "jobcomploc", "jobacctgathertype",
      "jobacctgatherfrequency", "accountingstoragehost",
      "accountingstorageport", "accountingstorageenforce", "accountingstoragetres",
      "accountingstorageuser", "accountingstoreflags", "accountingstoragepass",
      "acctgatherenergytype", "acctgathernodefreq", "mailprog", "epilog", "prolog",
      "prologflags", "epilogslurmctld", "prologslurmctld", "plugindir", "plugstackconfig",
      "healthcheckprogram", "healthcheckinterval", "healthchecknodestate", "launchtype",
      "maxarraysize", "maxstepcount", "tmpfs", "usepam", "propagateresourcelimits",
      "propagateresourcelimitsexcept", "srunportrange", "treewidth", "cachegroups",
      "jobrequeue", "groupupdateforce", "debugflags", "slurmschedlogfile",
      "slurmschedloglevel", "communicationparameters", "completewait", "resvoverrun",
      "suspendtime", "suspendprogram", "resumeprogram", "suspendtimeout", "resumetimeout",
      "resumerate", "suspendrate", "nodefeaturesplugins", "rebootprogram",
      "jobsubmitplugins", "clifilterplugins", "jobcredentialprivatekey",
      "jobcredentialpubliccertificate", "mailtype", "slurmctldparameters", "slurmdparameters",
      "taskprolog", "taskepilog", "unkillablesteptimeout", "vsizefactor", "x11parameters",
      "dependencyparameters", "jobcontainertype", "logtimeformat", "slurmctldsyslogdebug",
      "slurmdsyslogdebug", "srunprolog", "srunepilog", "keepalivetime", "mcsplugin"};
  return keys.count(key) > 0;
}

}  // namespace hs
