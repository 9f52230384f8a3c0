#pragma once
// Translation contexts of remote/ (docs/translations.md): RemoteSsh::tr("...") for node
// addresses, SSH sessions, host keys, commands and uploads; RemoteLaunch::tr("...") for
// the node pool, the cluster check and the stage 1 sweep. Only words meant for people go
// through them: shell words, command lines, protocol markers and JSON keys stay as they are.
#include <QCoreApplication>

namespace moewb::remote {
class RemoteSsh {
    Q_DECLARE_TR_FUNCTIONS(RemoteSsh)
};
class RemoteLaunch {
    Q_DECLARE_TR_FUNCTIONS(RemoteLaunch)
};
} // namespace moewb::remote
