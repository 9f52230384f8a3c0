// The Clusters page, offscreen, against real OpenSSH servers started here on 127.0.0.x
// (SshdCluster: private HOME, generated host keys) and a real project file: a cluster
// added through the dialog (and refused input named by field), Check off the GUI thread
// with the host-key dialog (fingerprint compared with `ssh-keygen -lf` of the host key
// file), Accept and remember / Accept once / Reject, a changed host key refused with no
// accept button, the inventory shown per node (compared with this machine's own facts),
// a local cluster checked without SSH, Edit… and Remove…, and the window's wiring.
#include "ClusterDialog.h"
#include "ClustersPage.h"
#include "HostKeyDialog.h"
#include "MainWindow.h"
#include "ProjectBrowser.h"

#include "SshdCluster.h"
#include "Translations.h"
#include "store/ProjectStore.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QHeaderView>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QRadioButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include <functional>

#include <unistd.h>

using namespace moewb;

namespace {

enum NodeColumn { NNode, NStatus, NHost, NGpus, NGpuModel, NDriver, NCuda, NNccl, NNetwork };

QString thisHostName() {
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    return QString::fromLocal8Bit(host);
}

// This machine's network interfaces with a device behind them (/sys/class/net/X/device):
// the ones the inventory calls physical.
QStringList physicalInterfaces() {
    QStringList out;
    for (const QString& n : QDir(QStringLiteral("/sys/class/net")).entryList(QDir::Dirs | QDir::NoDotAndDotDot))
        if (QFileInfo::exists(QStringLiteral("/sys/class/net/%1/device").arg(n)))
            out << n;
    return out;
}

// The visible top-level dialog of type T, if any.
template <typename T>
T* openDialog(const QString& objectName = {}) {
    for (QWidget* w : QApplication::topLevelWidgets()) {
        auto* d = qobject_cast<T*>(w);
        if (d && d->isVisible() && (objectName.isEmpty() || d->objectName() == objectName))
            return d;
    }
    return nullptr;
}

// Runs `act` on the modal dialog the next call opens (QDialog::exec runs its own loop).
template <typename T>
void whenDialogOpens(std::function<void(T*)> act) {
    auto* timer = new QTimer;
    timer->setInterval(20);
    QObject::connect(timer, &QTimer::timeout, timer, [timer, act] {
        if (T* d = openDialog<T>()) {
            timer->stop();
            timer->deleteLater();
            act(d);
        }
    });
    timer->start();
}

// Screenshots for people to look at: <build>/tests/artifacts/gui/clusters-*.png.
void saveShot(QWidget* w, const QString& name) {
    const QString dir = QStringLiteral(MOEWB_BINARY_DIR "/tests/artifacts/gui");
    QDir().mkpath(dir);
    QVERIFY(w->grab().save(dir + QStringLiteral("/clusters-") + name + QStringLiteral(".png")));
}

QString cell(QTableWidget* t, int row, int column) {
    QTableWidgetItem* i = t->item(row, column);
    return i ? i->text() : QString();
}

int rowOf(QTableWidget* t, const QString& node) {
    for (int r = 0; r < t->rowCount(); ++r)
        if (cell(t, r, NNode) == node)
            return r;
    return -1;
}

// known_hosts lists host (as "[ip]:port"): ssh-keygen -F, independent of libssh.
bool knownHostsHas(const QString& knownHosts, const QString& ip, int port) {
    int rc = -1;
    SshdCluster::run(QStringLiteral("ssh-keygen"), {QStringLiteral("-F"), QStringLiteral("[%1]:%2").arg(ip).arg(port),
                                                    QStringLiteral("-f"), knownHosts},
                     &rc);
    return rc == 0;
}

} // namespace

class TestClustersPage : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;
    QString m_project;

    std::unique_ptr<store::ProjectStore> reopen() {
        auto p = store::ProjectStore::open(m_project, store::OpenMode::MustExist);
        return p ? std::move(p.value()) : nullptr;
    }

    // Adds a cluster through the page's Add… dialog; `fill` sets the fields.
    void addThroughDialog(gui::ClustersPage& page, std::function<void(gui::ClusterDialog*)> fill) {
        bool done = false;
        whenDialogOpens<gui::ClusterDialog>([&](gui::ClusterDialog* d) {
            fill(d);
            d->findChild<QPushButton*>(QStringLiteral("okButton"))->click();
            done = true;
        });
        page.findChild<QPushButton*>(QStringLiteral("addClusterButton"))->click();
        QVERIFY(done);
    }

private slots:
    void initTestCase() {
        QVERIFY(m_tmp.isValid());
        m_project = m_tmp.filePath(QStringLiteral("clusters.moewb"));
        QVERIFY(store::ProjectStore::open(m_project, store::OpenMode::CreateIfMissing));
        qputenv("MOEWB_PROBE_BUNDLE", QByteArrayLiteral(MOEWB_PROBE_BUNDLE_DIR));
        // English plural forms ("3 nodes answered"), as the window installs them.
        moewb::i18n::installTranslations(*qApp, QStringLiteral("en"));
    }

    // Three sshd: node 0 and 1 unknown to known_hosts, node 2 known. First check: node 0
    // accepted and remembered, node 1 accepted once, inventory shown. Second check: node 0
    // silent, node 1 asked again and rejected, node 2's key changed (refused, no accept).
    void sshClusterHostKeysAndInventory() {
        SshdCluster c;
        QList<SshdCluster::NodeSpec> specs(3);
        specs[0].knownHost = false;
        specs[1].knownHost = false;
        const QString started = c.start(3, specs);
        QVERIFY2(started.isEmpty(), qPrintable(started));
        const QString knownHosts = c.sshDir() + QStringLiteral("/known_hosts");
        const QStringList addr = c.addressTexts();

        auto project = reopen();
        QVERIFY(project);
        gui::ClustersPage page;
        page.resize(1100, 700);
        page.setProject(project.get());
        page.show();

        // Refused input names the field and the address; nothing is stored.
        QString problem;
        addThroughDialog(page, [&](gui::ClusterDialog* d) {
            d->findChild<QLineEdit*>(QStringLiteral("clusterNameEdit"))->setText(QStringLiteral("lab"));
            d->findChild<QPlainTextEdit*>(QStringLiteral("nodesEdit"))->setPlainText(addr[0] + QStringLiteral("\nnode;reboot"));
            d->findChild<QPushButton*>(QStringLiteral("okButton"))->click();
            problem = d->findChild<QLabel*>(QStringLiteral("problemLabel"))->text();
            QVERIFY(d->isVisible());
            d->findChild<QPlainTextEdit*>(QStringLiteral("nodesEdit"))->setPlainText(addr.join(QLatin1Char('\n')));
        });
        QVERIFY2(problem.startsWith(QStringLiteral("Nodes: \"node;reboot\"")), qPrintable(problem));
        {
            auto check = reopen();
            const auto clusters = check->clusters();
            QCOMPARE(clusters.size(), 1);
            QCOMPARE(clusters[0].name, QStringLiteral("lab"));
            QStringList stored;
            for (const auto& n : check->nodes(clusters[0].id))
                stored << n.address;
            QCOMPARE(stored, addr);
        }
        QCOMPARE(page.selectedCluster(), QStringLiteral("lab"));
        QCOMPARE(cell(page.clustersTable(), 0, 2), QStringLiteral("3"));
        QCOMPARE(cell(page.clustersTable(), 0, 4), QStringLiteral("never checked"));
        // Never "ok" beside "never checked": a node is ok only with a check's time.
        for (int r = 0; r < page.nodesTable()->rowCount(); ++r)
            QCOMPARE(cell(page.nodesTable(), r, NStatus), QStringLiteral("not checked yet"));

        // Check 1.
        QStringList askedNodes;
        QMap<QString, QString> shownFingerprint, shownType;
        auto answer = [&](gui::HostKeyDialog* d) {
            const QString node = d->key().node;
            askedNodes << node;
            shownFingerprint[node] = d->findChild<QLabel*>(QStringLiteral("fingerprintLabel"))->text();
            shownType[node] = d->findChild<QLabel*>(QStringLiteral("keyTypeLabel"))->text();
            saveShot(d, QStringLiteral("hostkey-unknown"));
            const char* button = node == addr[0] ? "acceptRememberButton" : "acceptOnceButton";
            d->findChild<QPushButton*>(QString::fromLatin1(button))->click();
        };
        page.findChild<QPushButton*>(QStringLiteral("checkClusterButton"))->click();
        QVERIFY(page.isChecking());
        QVERIFY(page.findChild<QPushButton*>(QStringLiteral("cancelCheckButton"))->isVisible());
        for (int asked = 0; asked < 2; ++asked) {
            QTRY_VERIFY_WITH_TIMEOUT(openDialog<gui::HostKeyDialog>(QStringLiteral("hostKeyDialog")) != nullptr, 60000);
            answer(openDialog<gui::HostKeyDialog>(QStringLiteral("hostKeyDialog")));
        }
        QTRY_VERIFY_WITH_TIMEOUT(!page.isChecking(), 180000);
        askedNodes.sort();
        QStringList expectedAsked{addr[0], addr[1]};
        expectedAsked.sort();
        QCOMPARE(askedNodes, expectedAsked);
        for (int i : {0, 1}) {
            QCOMPARE(shownFingerprint.value(addr[i]), c.hostKeyFingerprint(i));  // ssh-keygen -lf of the host key
            QCOMPARE(shownType.value(addr[i]), QStringLiteral("ssh-ed25519"));
        }
        QVERIFY(knownHostsHas(knownHosts, c.ip(0), c.port(0)));   // remembered
        QVERIFY(!knownHostsHas(knownHosts, c.ip(1), c.port(1)));  // once: not written

        QTableWidget* nodes = page.nodesTable();
        QCOMPARE(nodes->rowCount(), 3);
        const QStringList nics = physicalInterfaces();
        for (int i = 0; i < 3; ++i) {
            const int r = rowOf(nodes, addr[i]);
            QVERIFY(r >= 0);
            QVERIFY2(cell(nodes, r, NStatus).startsWith(QStringLiteral("ok")), qPrintable(cell(nodes, r, NStatus)));
            QCOMPARE(cell(nodes, r, NHost), thisHostName());
            QVERIFY(!cell(nodes, r, NCuda).isEmpty());
            QVERIFY(!cell(nodes, r, NNccl).isEmpty());
            // The network on one line (alike links counted), every link in its tooltip.
            const QString net = cell(nodes, r, NNetwork);
            const QString netDetail = nodes->item(r, NNetwork)->toolTip();
            QVERIFY2(!net.contains(QLatin1Char('\n')), qPrintable(net));
            if (nics.isEmpty())
                QCOMPARE(net, QStringLiteral("only virtual interfaces"));
            for (const QString& nic : nics)
                QVERIFY2(netDetail.contains(nic), qPrintable(netDetail + QStringLiteral(" lacks ") + nic));
            // Every node row is one line high.
            QVERIFY2(nodes->rowHeight(r) <= nodes->verticalHeader()->defaultSectionSize(),
                     qPrintable(QStringLiteral("row %1 is %2 px").arg(r).arg(nodes->rowHeight(r))));
        }
        QVERIFY2(cell(page.clustersTable(), 0, 4).startsWith(QStringLiteral("3 nodes answered")),
                 qPrintable(cell(page.clustersTable(), 0, 4)));
        {
            // Kept in the project: each node's inventory, the cluster's last check.
            auto check = reopen();
            const auto cl = check->clusters().value(0);
            const QJsonObject last = cl.facts.value(QStringLiteral("last_check")).toObject();
            QCOMPARE(last.value(QStringLiteral("ok")).toInt(), 3);
            QCOMPARE(last.value(QStringLiteral("failed")).toInt(), 0);
            for (const auto& n : check->nodes(cl.id)) {
                QCOMPARE(n.facts.value(QStringLiteral("hostname")).toString(), thisHostName());
                QVERIFY(n.facts.contains(QStringLiteral("checked")));
            }
        }

        // Check 2: node 2's host key changed; node 1 asked again (accepted once before).
        const QString oldFp2 = c.hostKeyFingerprint(2);
        const QString changed = c.changeHostKey(2);
        QVERIFY2(changed.isEmpty(), qPrintable(changed));
        const QString newFp2 = c.hostKeyFingerprint(2);
        QVERIFY(oldFp2 != newFp2);
        askedNodes.clear();
        bool changedShown = false;
        page.findChild<QPushButton*>(QStringLiteral("checkClusterButton"))->click();
        QElapsedTimer t;
        t.start();
        while (page.isChecking() && t.elapsed() < 180000) {
            QTest::qWait(20);
            if (auto* d = openDialog<gui::HostKeyDialog>(QStringLiteral("hostKeyDialog"))) {
                askedNodes << d->key().node;
                d->findChild<QPushButton*>(QStringLiteral("rejectButton"))->click();
            }
            if (auto* d = openDialog<gui::HostKeyDialog>(QStringLiteral("hostKeyChangedDialog")); d && !changedShown) {
                changedShown = true;
                QCOMPARE(d->key().node, addr[2]);
                QCOMPARE(d->findChild<QLabel*>(QStringLiteral("fingerprintLabel"))->text(), newFp2);
                QVERIFY(d->findChild<QLabel*>(QStringLiteral("knownFingerprintsLabel"))->text().contains(oldFp2));
                QVERIFY(d->findChild<QLabel*>(QStringLiteral("hostKeyHeadline"))->text().contains(QStringLiteral("CHANGED")));
                saveShot(d, QStringLiteral("hostkey-changed"));
                // No way to accept it.
                QVERIFY(!d->findChild<QPushButton*>(QStringLiteral("acceptOnceButton")));
                QVERIFY(!d->findChild<QPushButton*>(QStringLiteral("acceptRememberButton")));
                for (QPushButton* b : d->findChildren<QPushButton*>())
                    QVERIFY2(!b->text().contains(QStringLiteral("Accept")), qPrintable(b->text()));
                d->findChild<QPushButton*>(QStringLiteral("closeButton"))->click();
            }
        }
        QVERIFY(!page.isChecking());
        QVERIFY(changedShown);
        QCOMPARE(askedNodes, QStringList{addr[1]});  // node 0 was remembered: silent
        QVERIFY(!knownHostsHas(knownHosts, c.ip(1), c.port(1)));
        QVERIFY2(cell(nodes, rowOf(nodes, addr[1]), NStatus) == QStringLiteral("refused: unknown host key"),
                 qPrintable(cell(nodes, rowOf(nodes, addr[1]), NStatus)));
        QVERIFY2(cell(nodes, rowOf(nodes, addr[2]), NStatus) == QStringLiteral("refused: host key CHANGED"),
                 qPrintable(cell(nodes, rowOf(nodes, addr[2]), NStatus)));
        // known_hosts still holds the old key of node 2, never the new one.
        const QString kh = SshdCluster::run(QStringLiteral("ssh-keygen"),
                                            {QStringLiteral("-l"), QStringLiteral("-f"), knownHosts});
        QVERIFY2(kh.contains(oldFp2) && !kh.contains(newFp2), qPrintable(kh));
        QVERIFY2(page.checkSummary().contains(QStringLiteral("CHANGED")), qPrintable(page.checkSummary()));
        // Node 0 connected silently, but a check goes no further once a node failed.
        QCOMPARE(cell(nodes, rowOf(nodes, addr[0]), NStatus), QStringLiteral("not checked: another node failed first"));
        QVERIFY2(cell(page.clustersTable(), 0, 4).startsWith(QStringLiteral("0 of 3 nodes answered")),
                 qPrintable(cell(page.clustersTable(), 0, 4)));
        saveShot(&page, QStringLiteral("page-after-changed-key"));

        // Edit…: another name, node 1 dropped; node 0 keeps its inventory.
        whenDialogOpens<gui::ClusterDialog>([&](gui::ClusterDialog* d) {
            d->findChild<QLineEdit*>(QStringLiteral("clusterNameEdit"))->setText(QStringLiteral("lab-b"));
            d->findChild<QPlainTextEdit*>(QStringLiteral("nodesEdit"))->setPlainText(addr[0] + QStringLiteral(", ") + addr[2]);
            d->findChild<QPushButton*>(QStringLiteral("okButton"))->click();
        });
        page.findChild<QPushButton*>(QStringLiteral("editClusterButton"))->click();
        {
            auto check = reopen();
            const auto clusters = check->clusters();
            QCOMPARE(clusters.size(), 1);
            QCOMPARE(clusters[0].name, QStringLiteral("lab-b"));
            const auto ns = check->nodes(clusters[0].id);
            QCOMPARE(ns.size(), 2);
            QCOMPARE(ns[0].address, addr[0]);
            QCOMPARE(ns[0].facts.value(QStringLiteral("hostname")).toString(), thisHostName());
            QCOMPARE(ns[1].address, addr[2]);
        }
        // Remove…: asked first; Cancel keeps it, Remove removes it.
        whenDialogOpens<QMessageBox>([](QMessageBox* m) { m->button(QMessageBox::Cancel)->click(); });
        page.findChild<QPushButton*>(QStringLiteral("removeClusterButton"))->click();
        QCOMPARE(reopen()->clusters().size(), 1);
        whenDialogOpens<QMessageBox>([](QMessageBox* m) {
            for (QAbstractButton* b : m->buttons())
                if (m->buttonRole(b) == QMessageBox::DestructiveRole)
                    b->click();
        });
        page.findChild<QPushButton*>(QStringLiteral("removeClusterButton"))->click();
        QCOMPARE(reopen()->clusters().size(), 0);
        QCOMPARE(page.clustersTable()->rowCount(), 0);
    }

    // A local cluster: checked without SSH (no host-key question), this computer's facts.
    void localClusterCheck() {
        auto project = reopen();
        gui::ClustersPage page;
        page.resize(1100, 700);
        page.setProject(project.get());
        page.show();
        QString problem;
        addThroughDialog(page, [&](gui::ClusterDialog* d) {
            d->findChild<QLineEdit*>(QStringLiteral("clusterNameEdit"))->setText(QStringLiteral("here"));
            d->findChild<QRadioButton*>(QStringLiteral("localKindButton"))->setChecked(true);
            d->findChild<QSpinBox*>(QStringLiteral("ranksSpin"))->setValue(3);
            d->findChild<QLineEdit*>(QStringLiteral("netnsRateEdit"))->setText(QStringLiteral("fast"));
            d->findChild<QPushButton*>(QStringLiteral("okButton"))->click();
            problem = d->findChild<QLabel*>(QStringLiteral("problemLabel"))->text();
            d->findChild<QLineEdit*>(QStringLiteral("netnsRateEdit"))->clear();
        });
        QVERIFY2(problem.startsWith(QStringLiteral("Network rate: \"fast\" is not a rate")), qPrintable(problem));
        QCOMPARE(page.selectedCluster(), QStringLiteral("here"));
        QCOMPARE(cell(page.clustersTable(), 0, 1), QStringLiteral("local: this computer, loopback"));
        page.findChild<QPushButton*>(QStringLiteral("checkClusterButton"))->click();
        QTRY_VERIFY_WITH_TIMEOUT(!page.isChecking(), 120000);
        QVERIFY(!openDialog<gui::HostKeyDialog>());
        QTableWidget* nodes = page.nodesTable();
        QCOMPARE(nodes->rowCount(), 3);
        for (int r = 0; r < 3; ++r) {
            QCOMPARE(cell(nodes, r, NNode), QStringLiteral("local:%1").arg(r));
            QVERIFY2(cell(nodes, r, NStatus).startsWith(QStringLiteral("ok")), qPrintable(cell(nodes, r, NStatus)));
            QCOMPARE(cell(nodes, r, NHost), thisHostName());
        }
        auto check = reopen();
        const auto cl = check->clusters().value(0);
        QCOMPARE(cl.facts.value(QStringLiteral("launcher")).toString(), QStringLiteral("local"));
        QCOMPARE(cl.facts.value(QStringLiteral("ranks")).toInt(), 3);
        QCOMPARE(cl.facts.value(QStringLiteral("last_check")).toObject().value(QStringLiteral("ok")).toInt(), 3);
    }

    // The window: View ▸ Clusters and the browser's CLUSTERS section show the page.
    void windowWiring() {
        gui::MainWindow w;
        QString error;
        QVERIFY2(w.openProject(m_project, false, &error), qPrintable(error));
        w.resize(1366, 768);
        w.show();
        auto* action = w.findChild<QAction*>(QStringLiteral("actionClusters"));
        QVERIFY(action);
        action->trigger();
        QCOMPARE(w.currentPage(), static_cast<QWidget*>(w.clustersPage()));
        QVERIFY(w.browser()->select(gui::ProjectBrowser::ItemKind::Stage, QStringLiteral("1")));
        QVERIFY(w.currentPage() != static_cast<QWidget*>(w.clustersPage()));
        QVERIFY(w.browser()->select(gui::ProjectBrowser::ItemKind::Cluster, QStringLiteral("here")));
        QCOMPARE(w.currentPage(), static_cast<QWidget*>(w.clustersPage()));
        QCOMPARE(w.clustersPage()->selectedCluster(), QStringLiteral("here"));
        // No sideways scrolling at 1366 × 768.
        QTableWidget* nodes = w.clustersPage()->nodesTable();
        QVERIFY(w.clustersPage()->width() <= 1366);
        int total = 0;
        for (int col = 0; col < nodes->columnCount(); ++col)
            total += nodes->columnWidth(col);
        QVERIFY2(total <= nodes->viewport()->width() + 2 || nodes->columnCount() == 0,
                 qPrintable(QStringLiteral("%1 > %2").arg(total).arg(nodes->viewport()->width())));
    }
};

QTEST_MAIN(TestClustersPage)
#include "test_clusters_page.moc"
