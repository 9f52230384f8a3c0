<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>NodeInventoryFill</name>
    <message>
        <source>The cluster has no nodes.</source>
        <translation>该集群没有节点。</translation>
    </message>
    <message>
        <source>InfiniBand %1 Gb/s x%2</source>
        <translation>InfiniBand %1 Gb/s x%2</translation>
    </message>
    <message>
        <source>InfiniBand x%1</source>
        <translation>InfiniBand x%1</translation>
    </message>
    <message>
        <source>Ethernet %1 Gb/s x%2</source>
        <translation>以太网 %1 Gb/s x%2</translation>
    </message>
    <message>
        <source>Ethernet x%1</source>
        <translation>以太网 x%1</translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n node(s) carry a probe inventory.</source>
        <translation>
            <numerusform>%n 个节点中有 %1 个带有探针清单。</numerusform>
        </translation>
    </message>
    <message>
        <source>The nodes disagree on the accelerator model (%1); the first node&apos;s was used.</source>
        <translation>各节点的加速器型号不一致（%1）；已采用第一个节点的值。</translation>
    </message>
    <message>
        <source>The nodes disagree on accelerators per node; the first node&apos;s (%1) was used.</source>
        <translation>各节点的每节点加速器数不一致；已采用第一个节点的值（%1）。</translation>
    </message>
    <message>
        <source>The nodes disagree on the fabric (%1); the first node&apos;s was used.</source>
        <translation>各节点的互连网络不一致（%1）；已采用第一个节点的值。</translation>
    </message>
</context>
<context>
    <name>RecordEditor</name>
    <message>
        <source>Cluster</source>
        <translation>集群</translation>
    </message>
    <message>
        <source>MoE routing</source>
        <translation>MoE 路由</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Parallelism</source>
        <translation>并行</translation>
    </message>
    <message>
        <source>Batch</source>
        <translation>批次</translation>
    </message>
    <message>
        <source>Throughput accounting</source>
        <translation>吞吐量计算口径</translation>
    </message>
    <message>
        <source>Training recipe</source>
        <translation>训练配方</translation>
    </message>
    <message>
        <source>accelerator model</source>
        <translation>加速器型号</translation>
    </message>
    <message>
        <source>accelerators per node</source>
        <translation>每节点加速器数</translation>
    </message>
    <message>
        <source>activated params</source>
        <translation>激活参数量</translation>
    </message>
    <message>
        <source>capacity factor</source>
        <translation>容量因子</translation>
    </message>
    <message>
        <source>coefficient</source>
        <translation>系数</translation>
    </message>
    <message>
        <source>cp</source>
        <translation>CP</translation>
    </message>
    <message>
        <source>data loading included</source>
        <translation>包含数据加载</translation>
    </message>
    <message>
        <source>description</source>
        <translation>描述</translation>
    </message>
    <message>
        <source>dp</source>
        <translation>DP</translation>
    </message>
    <message>
        <source>drop order</source>
        <translation>丢弃顺序</translation>
    </message>
    <message>
        <source>ep</source>
        <translation>EP</translation>
    </message>
    <message>
        <source>experts</source>
        <translation>专家数</translation>
    </message>
    <message>
        <source>ffn hidden size</source>
        <translation>FFN 隐藏维度</translation>
    </message>
    <message>
        <source>global batch tokens</source>
        <translation>全局批次 token 数</translation>
    </message>
    <message>
        <source>hidden size</source>
        <translation>隐藏维度</translation>
    </message>
    <message>
        <source>inter node fabric</source>
        <translation>节点间互连</translation>
    </message>
    <message>
        <source>intra node link</source>
        <translation>节点内链路</translation>
    </message>
    <message>
        <source>kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>layers</source>
        <translation>层数</translation>
    </message>
    <message>
        <source>load balancing</source>
        <translation>负载均衡</translation>
    </message>
    <message>
        <source>lr schedule</source>
        <translation>学习率调度</translation>
    </message>
    <message>
        <source>method</source>
        <translation>方法</translation>
    </message>
    <message>
        <source>moe layers</source>
        <translation>MoE 层数</translation>
    </message>
    <message>
        <source>network type</source>
        <translation>网络类型</translation>
    </message>
    <message>
        <source>nodes</source>
        <translation>节点数</translation>
    </message>
    <message>
        <source>optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>overflow policy</source>
        <translation>溢出策略</translation>
    </message>
    <message>
        <source>pp</source>
        <translation>PP</translation>
    </message>
    <message>
        <source>rail optimized</source>
        <translation>轨道优化</translation>
    </message>
    <message>
        <source>router score function</source>
        <translation>路由打分函数</translation>
    </message>
    <message>
        <source>sequence length</source>
        <translation>序列长度</translation>
    </message>
    <message>
        <source>shared experts</source>
        <translation>共享专家数</translation>
    </message>
    <message>
        <source>tokens trained</source>
        <translation>已训练 token 数</translation>
    </message>
    <message>
        <source>top k</source>
        <translation>Top-K</translation>
    </message>
    <message>
        <source>topology</source>
        <translation>拓扑</translation>
    </message>
    <message>
        <source>total params</source>
        <translation>总参数量</translation>
    </message>
    <message>
        <source>tp</source>
        <translation>TP</translation>
    </message>
    <message>
        <source>update rate</source>
        <translation>更新速率</translation>
    </message>
    <message>
        <source>validation set</source>
        <translation>验证集</translation>
    </message>
    <message>
        <source>warmup steps excluded</source>
        <translation>排除预热步</translation>
    </message>
    <message>
        <source>expert tp</source>
        <translation>专家 TP</translation>
    </message>
    <message>
        <source>rank order</source>
        <translation>rank 顺序</translation>
    </message>
</context>
<context>
    <name>StageStatus</name>
    <message>
        <source>Communication baseline</source>
        <translation>通信基线</translation>
    </message>
    <message>
        <source>Dense control</source>
        <translation>稠密对照</translation>
    </message>
    <message>
        <source>Expert load and loss</source>
        <translation>专家负载与损失</translation>
    </message>
    <message>
        <source>Transfer to the target cluster</source>
        <translation>迁移到目标集群</translation>
    </message>
    <message>
        <source>Comm. baseline</source>
        <translation>通信基线</translation>
    </message>
    <message>
        <source>Expert load</source>
        <translation>专家负载</translation>
    </message>
    <message>
        <source>Transfer</source>
        <translation>迁移</translation>
    </message>
    <message>
        <source>%1 %2 %3 — %4</source>
        <translation>%1 %2 %3 — %4</translation>
    </message>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>The evaluation is running; the page shows its progress.</source>
        <translation>评估正在运行；页面上显示其进度。</translation>
    </message>
    <message>
        <source>Locked: %1</source>
        <translation>已锁定：%1</translation>
    </message>
    <message>
        <source>What unlocks it: open stage %1 (Ctrl+%1) and evaluate it until it passes, or override its stop there with a written justification.</source>
        <translation>解锁方法：打开阶段 %1（Ctrl+%1）并评估直至通过，或在该页写明理由豁免其停止。</translation>
    </message>
    <message>
        <source>Its earlier verdict (&quot;%1&quot;) stays on record until it is evaluated again.</source>
        <translation>其先前的结论（“%1”）会保留在记录中，直到再次评估。</translation>
    </message>
    <message>
        <source>Not evaluated yet. Open the stage and press Evaluate.</source>
        <translation>尚未评估。打开该阶段并点击“评估”。</translation>
    </message>
    <message>
        <source>%1
Override the stop on the stage&apos;s page with a written justification, or fix the cause and evaluate again.</source>
        <translation>%1
请在该阶段页面写明理由豁免此停止，或修正原因后重新评估。</translation>
    </message>
    <message>
        <source>Stale: %1
Evaluate the stage again.</source>
        <translation>已过期：%1
请重新评估该阶段。</translation>
    </message>
    <message>
        <source>Not ready: %1</source>
        <translation>未就绪：%1</translation>
    </message>
    <message>
        <source>The stop: %1</source>
        <translation>停止原因:%1</translation>
    </message>
    <message>
        <source>overridden, on older data</source>
        <translation>已豁免(基于旧数据)</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>MoE Workbench: evaluate Mixture-of-Experts training on real clusters.</source>
        <translation>MoE Workbench：在真实集群上评估混合专家（MoE）训练。</translation>
    </message>
    <message>
        <source>open the demo project (synthetic data), writing it first if missing</source>
        <translation>打开演示项目（合成数据），不存在时先写入</translation>
    </message>
    <message>
        <source>the project to open (default: the start screen)</source>
        <translation>要打开的项目（默认：开始界面）</translation>
    </message>
    <message>
        <source>moe-workbench: expects at most one PROJECT_FILE, or --demo</source>
        <translation>moe-workbench：最多只接受一个 PROJECT_FILE，或 --demo</translation>
    </message>
    <message>
        <source>moe-workbench: this build has no demo project</source>
        <translation>moe-workbench：此构建不含演示项目</translation>
    </message>
    <message>
        <source>Open project</source>
        <translation>打开项目</translation>
    </message>
</context>
<context>
    <name>moewb::gui::AssessmentView</name>
    <message>
        <source>Assessment sheet</source>
        <translation>评估表</translation>
    </message>
    <message>
        <source>Core question: %1</source>
        <translation>核心问题：%1</translation>
    </message>
    <message>
        <source>Verification: %1</source>
        <translation>验证方法：%1</translation>
    </message>
    <message>
        <source>Rating</source>
        <translation>评级</translation>
    </message>
    <message>
        <source>What the evidence shows, and its limits</source>
        <translation>证据说明了什么，以及它的局限</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>Evidence</source>
        <translation>证据</translation>
    </message>
    <message>
        <source>Tick the runs and stages that support this rating</source>
        <translation>勾选支持此评级的运行和阶段</translation>
    </message>
    <message>
        <source>Cost estimate</source>
        <translation>成本估算</translation>
    </message>
    <message>
        <source>Estimate</source>
        <translation>估算</translation>
    </message>
    <message>
        <source>Cost drivers</source>
        <translation>成本驱动因素</translation>
    </message>
    <message>
        <source>Assessed by</source>
        <translation>评估人</translation>
    </message>
    <message>
        <source>name</source>
        <translation>姓名</translation>
    </message>
    <message>
        <source>Revert</source>
        <translation>还原</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>No project open</source>
        <translation>未打开项目</translation>
    </message>
    <message>
        <source>Last saved %1</source>
        <translation>上次保存于 %1</translation>
    </message>
    <message>
        <source>Not saved yet</source>
        <translation>尚未保存</translation>
    </message>
    <message>
        <source>Run %1</source>
        <translation>运行 %1</translation>
    </message>
    <message>
        <source>Stage %1</source>
        <translation>阶段 %1</translation>
    </message>
    <message>
        <source>Not saved: %1</source>
        <translation>未保存：%1</translation>
    </message>
    <message>
        <source>Saved</source>
        <translation>已保存</translation>
    </message>
    <message>
        <source>Not a single number: name what drives each cost.</source>
        <translation>不要只给一个数字：写明每项成本的驱动因素。</translation>
    </message>
    <message>
        <source>The ten review dimensions, applied to the team&apos;s MoE training plan and this evaluation. Under each, &quot;From the project&quot; is what the project&apos;s records, runs and verdicts show; rate each dimension, write what you found and link the runs and stages that show it. The sheet and the cost estimate are printed in the PDF report.</source>
        <translation>十个评审维度，用于团队的 MoE 训练方案和本次评估。每个维度下的“来自项目”是项目中的记录、运行和结论所显示的内容；请为每个维度评级、写下发现，并关联能说明问题的运行和阶段。评估表和成本估算会打印在 PDF 报告中。</translation>
    </message>
    <message>
        <source>&lt;i&gt;From the project: nothing the workbench measures speaks to this — it is for the team to fill.&lt;/i&gt;</source>
        <translation>&lt;i&gt;来自项目：工作台测量的内容都不涉及这一维度——由团队填写。&lt;/i&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;From the project:&lt;/b&gt;</source>
        <translation>&lt;b&gt;来自项目：&lt;/b&gt;</translation>
    </message>
    <message numerus="yes">
        <source>%n older run(s) not listed</source>
        <translation>
            <numerusform>另有 %n 个较早的运行未列出</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>moewb::gui::ClusterDialog</name>
    <message>
        <source>Edit cluster %1</source>
        <translation>编辑集群 %1</translation>
    </message>
    <message>
        <source>Add a cluster</source>
        <translation>添加集群</translation>
    </message>
    <message>
        <source>e.g. a100-lab</source>
        <translation>例如 a100-lab</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>名称(&amp;N):</translation>
    </message>
    <message>
        <source>&amp;Nodes over SSH</source>
        <translation>通过 SSH 的节点(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;This computer (local ranks, no SSH)</source>
        <translation>本机(本地 rank,无 SSH)(&amp;T)</translation>
    </message>
    <message>
        <source>Reached by:</source>
        <translation>连接方式:</translation>
    </message>
    <message>
        <source>SSH nodes</source>
        <translation>SSH 节点</translation>
    </message>
    <message>
        <source>one node a line (or comma-separated):
gpu1
me@10.0.0.7:2222</source>
        <translation>每行一个节点(或用逗号分隔):
gpu1
me@10.0.0.7:2222</translation>
    </message>
    <message>
        <source>N&amp;odes:</source>
        <translation>节点(&amp;O):</translation>
    </message>
    <message>
        <source>An ~/.ssh/config alias (its HostName, User, Port and IdentityFile apply), or [user@]host[:port]; IPv6 addresses in brackets.</source>
        <translation>~/.ssh/config 中的别名(其 HostName、User、Port 和 IdentityFile 生效),或 [user@]host[:port];IPv6 地址写在方括号内。</translation>
    </message>
    <message>
        <source>from the inventory</source>
        <translation>取自清单</translation>
    </message>
    <message>
        <source>&amp;GPUs per node:</source>
        <translation>每节点 GPU 数(&amp;G):</translation>
    </message>
    <message>
        <source>none: ssh-agent, then ~/.ssh/id_ed25519, id_ecdsa, id_rsa</source>
        <translation>不填:先用 ssh-agent,再用 ~/.ssh/id_ed25519、id_ecdsa、id_rsa</translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation>浏览(&amp;B)…</translation>
    </message>
    <message>
        <source>SSH private key</source>
        <translation>SSH 私钥</translation>
    </message>
    <message>
        <source>&amp;Identity file:</source>
        <translation>身份密钥文件(&amp;I):</translation>
    </message>
    <message>
        <source>Only the file&apos;s path is kept in the project. A passphrase is asked when the key is used and never stored.</source>
        <translation>项目中只保存该文件的路径。使用密钥时才询问口令,口令从不保存。</translation>
    </message>
    <message>
        <source>This computer</source>
        <translation>本机</translation>
    </message>
    <message>
        <source>&amp;Ranks:</source>
        <translation>rank 数(&amp;R):</translation>
    </message>
    <message>
        <source>empty: loopback; e.g. 200mbit (root only)</source>
        <translation>不填:回环网络;例如 200mbit(仅限 root)</translation>
    </message>
    <message>
        <source>Network &amp;rate:</source>
        <translation>网络速率(&amp;R):</translation>
    </message>
    <message>
        <source>Each rank in its own network namespace, its link shaped to this rate (tc tbf): a slower network on the same machine.</source>
        <translation>每个 rank 位于各自的网络命名空间,其链路限速为此速率(tc tbf):在同一台机器上模拟较慢的网络。</translation>
    </message>
    <message>
        <source>empty: 10 ms of the rate, at least 32kb</source>
        <translation>不填:该速率 10 ms 的数据量,至少 32kb</translation>
    </message>
    <message>
        <source>B&amp;urst:</source>
        <translation>突发量(&amp;U):</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Add</source>
        <translation>添加(&amp;A)</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>GPUs per node</source>
        <translation>每节点 GPU 数</translation>
    </message>
    <message>
        <source>Identity file</source>
        <translation>身份密钥文件</translation>
    </message>
    <message>
        <source>Ranks</source>
        <translation>rank 数</translation>
    </message>
    <message>
        <source>Network rate</source>
        <translation>网络速率</translation>
    </message>
    <message>
        <source>Burst</source>
        <translation>突发量</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1:%2</translation>
    </message>
</context>
<context>
    <name>moewb::gui::ClustersPage</name>
    <message>
        <source>%1 × %2</source>
        <translation>%1 × %2</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>%1 (%2 Gb/s)</source>
        <translation>%1(%2 Gb/s)</translation>
    </message>
    <message>
        <source>%1 port %2 (%3, %4 Gb/s)</source>
        <translation>%1 端口 %2(%3,%4 Gb/s)</translation>
    </message>
    <message>
        <source>only virtual interfaces</source>
        <translation>只有虚拟网卡</translation>
    </message>
    <message>
        <source>refused: host key CHANGED</source>
        <translation>已拒绝:主机密钥已更改</translation>
    </message>
    <message>
        <source>refused: unknown host key</source>
        <translation>已拒绝:未知主机密钥</translation>
    </message>
    <message>
        <source>failed: authentication refused</source>
        <translation>失败:认证被拒绝</translation>
    </message>
    <message>
        <source>failed: unreachable</source>
        <translation>失败:无法连接</translation>
    </message>
    <message>
        <source>failed: timed out</source>
        <translation>失败:超时</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Clusters</source>
        <translation>集群</translation>
    </message>
    <message>
        <source>The machines stage 1 measures on. Check connects to every node, verifies its host key, uploads the probe and reads what the node has: GPUs, driver, CUDA, NCCL, network.</source>
        <translation>阶段 1 在这些机器上测量。“检查”会连接每个节点、核验其主机密钥、上传探针,并读取节点的配置:GPU、驱动、CUDA、NCCL、网络。</translation>
    </message>
    <message>
        <source>&amp;Add…</source>
        <translation>添加(&amp;A)…</translation>
    </message>
    <message>
        <source>&amp;Edit…</source>
        <translation>编辑(&amp;E)…</translation>
    </message>
    <message>
        <source>Re&amp;move…</source>
        <translation>移除(&amp;M)…</translation>
    </message>
    <message>
        <source>&amp;Check</source>
        <translation>检查(&amp;C)</translation>
    </message>
    <message>
        <source>Connect to every node of the selected cluster, check its host key, upload the probe and read its inventory</source>
        <translation>连接所选集群的每个节点,检查其主机密钥,上传探针并读取其清单</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation>集群</translation>
    </message>
    <message>
        <source>Launcher</source>
        <translation>启动方式</translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>GPUs/node</source>
        <translation>GPU/节点</translation>
    </message>
    <message>
        <source>Last check</source>
        <translation>上次检查</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Host name</source>
        <translation>主机名</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU 数</translation>
    </message>
    <message>
        <source>GPU model</source>
        <translation>GPU 型号</translation>
    </message>
    <message>
        <source>Driver</source>
        <translation>驱动</translation>
    </message>
    <message>
        <source>CUDA</source>
        <translation>CUDA</translation>
    </message>
    <message>
        <source>NCCL</source>
        <translation>NCCL</translation>
    </message>
    <message>
        <source>Network</source>
        <translation>网络</translation>
    </message>
    <message>
        <source>What each node did during the last check.</source>
        <translation>上次检查中每个节点做了什么。</translation>
    </message>
    <message>
        <source>SSH</source>
        <translation>SSH</translation>
    </message>
    <message>
        <source>local: this computer, loopback</source>
        <translation>本地:本机,回环网络</translation>
    </message>
    <message>
        <source>local: this computer, links at %1</source>
        <translation>本地:本机,链路限速 %1</translation>
    </message>
    <message>
        <source>%1 (inventory)</source>
        <translation>%1(清单)</translation>
    </message>
    <message>
        <source>checking now…</source>
        <translation>正在检查…</translation>
    </message>
    <message>
        <source>never checked</source>
        <translation>从未检查</translation>
    </message>
    <message numerus="yes">
        <source>%n node(s) answered · %1</source>
        <translation>
            <numerusform>%n 个节点已应答 · %1</numerusform>
        </translation>
    </message>
    <message>
        <source>No clusters yet: Add… one, by its nodes&apos; SSH addresses or as this computer.</source>
        <translation>还没有集群:点“添加…”,按节点的 SSH 地址添加,或添加本机。</translation>
    </message>
    <message numerus="yes">
        <source>%1: this computer, %n rank(s)</source>
        <translation>
            <numerusform>%1:本机,%n 个 rank</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: %n node(s)</source>
        <translation>
            <numerusform>%1:%n 个节点</numerusform>
        </translation>
    </message>
    <message>
        <source>ok · %1</source>
        <translation>正常 · %1</translation>
    </message>
    <message>
        <source>Checking…</source>
        <translation>正在检查…</translation>
    </message>
    <message>
        <source>Not checked yet: Check reaches every node and reads its inventory.</source>
        <translation>尚未检查:“检查”会连接每个节点并读取其清单。</translation>
    </message>
    <message numerus="yes">
        <source>Last check %1: %n node(s) answered.</source>
        <translation>
            <numerusform>上次检查 %1:%n 个节点已应答。</numerusform>
        </translation>
    </message>
    <message>
        <source>Add a cluster</source>
        <translation>添加集群</translation>
    </message>
    <message numerus="yes">
        <source>Added cluster %1 with %n node(s); Check reads their inventory.</source>
        <translation>
            <numerusform>已添加集群 %1,含 %n 个节点;“检查”会读取它们的清单。</numerusform>
        </translation>
    </message>
    <message>
        <source>Edit cluster</source>
        <translation>编辑集群</translation>
    </message>
    <message>
        <source>Saved cluster %1.</source>
        <translation>已保存集群 %1。</translation>
    </message>
    <message>
        <source>Remove cluster</source>
        <translation>移除集群</translation>
    </message>
    <message numerus="yes">
        <source>Remove cluster %1 and its %n node(s) from the project? Nothing on the nodes is touched.</source>
        <translation>
            <numerusform>从项目中移除集群 %1 及其 %n 个节点?节点上的任何内容都不会改动。</numerusform>
        </translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Removed cluster %1.</source>
        <translation>已移除集群 %1。</translation>
    </message>
    <message>
        <source>host key CHANGED: %1 %2 — refused</source>
        <translation>主机密钥已更改:%1 %2 — 已拒绝</translation>
    </message>
    <message>
        <source>unknown host key %1 %2: asking</source>
        <translation>未知主机密钥 %1 %2:正在询问</translation>
    </message>
    <message>
        <source>Key passphrase</source>
        <translation>密钥口令</translation>
    </message>
    <message>
        <source>%1
It is used for this check only and never stored.</source>
        <translation>%1
口令只用于本次检查,从不保存。</translation>
    </message>
    <message>
        <source>Starting the check of %1…</source>
        <translation>开始检查 %1…</translation>
    </message>
    <message>
        <source>this computer: running moe-probe --inventory (no SSH)</source>
        <translation>本机:运行 moe-probe --inventory(无 SSH)</translation>
    </message>
    <message>
        <source>this computer: %1</source>
        <translation>本机:%1</translation>
    </message>
    <message>
        <source>Cluster %1: node address &quot;%2&quot; cannot be used: %3</source>
        <translation>集群 %1:节点地址“%2”无法使用:%3</translation>
    </message>
    <message>
        <source>node %1: %2</source>
        <translation>节点 %1:%2</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <source>Check of %1 cancelled; nothing stored.</source>
        <translation>%1 的检查已取消;未保存任何内容。</translation>
    </message>
    <message numerus="yes">
        <source>Check of %1: %n node(s) answered; their inventory is stored.</source>
        <translation>
            <numerusform>%1 的检查:%n 个节点已应答;其清单已保存。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n node(s) answered · %2</source>
        <translation>
            <numerusform>%n 个节点中 %1 个已应答 · %2</numerusform>
        </translation>
    </message>
    <message>
        <source>not checked: another node failed first</source>
        <translation>未检查:另一个节点先失败了</translation>
    </message>
    <message numerus="yes">
        <source>Last check %1: %2 of %n node(s) answered.</source>
        <translation>
            <numerusform>上次检查 %1:%n 个节点中 %2 个已应答。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Check of %1: %2 of %n node(s) answered; see the status of each node.</source>
        <translation>
            <numerusform>%1 的检查:%n 个节点中 %2 个已应答;请查看每个节点的状态。</numerusform>
        </translation>
    </message>
    <message>
        <source>NIC</source>
        <translation>网卡</translation>
    </message>
    <message>
        <source>%1 %2 Gb/s</source>
        <translation>%1 %2 Gb/s</translation>
    </message>
    <message>
        <source>not checked yet</source>
        <translation>尚未检查</translation>
    </message>
</context>
<context>
    <name>moewb::gui::CompareRunsView</name>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Config record</source>
        <translation>配置记录</translation>
    </message>
    <message>
        <source>Last validation loss</source>
        <translation>最后验证损失</translation>
    </message>
    <message numerus="yes">
        <source>Comparing %n run(s): %1</source>
        <translation>
            <numerusform>比较 %n 个运行：%1</numerusform>
        </translation>
    </message>
    <message>
        <source>Open a project first.</source>
        <translation>请先打开一个项目。</translation>
    </message>
    <message>
        <source>Reading the runs&apos; measurements…</source>
        <translation>正在读取这些运行的测量数据…</translation>
    </message>
    <message>
        <source>The runs could not be read: %1</source>
        <translation>无法读取这些运行：%1</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1 %2，%2 {1:?}</translation>
    </message>
    <message>
        <source>No longer in the project: %1.</source>
        <translation>已不在项目中：%1。</translation>
    </message>
    <message>
        <source>No loss in: %1.</source>
        <translation>没有损失数据：%1。</translation>
    </message>
    <message>
        <source>No expert load in: %1.</source>
        <translation>没有专家负载数据：%1。</translation>
    </message>
    <message>
        <source>No all-to-all measurement in: %1.</source>
        <translation>没有 all-to-all 测量：%1。</translation>
    </message>
    <message>
        <source>These runs have no loss, expert load or all-to-all measurement in common to plot.</source>
        <translation>这些运行没有可以共同绘制的损失、专家负载或 all-to-all 测量。</translation>
    </message>
    <message>
        <source>Last loss</source>
        <translation>最后损失</translation>
    </message>
    <message>
        <source>Load max/mean</source>
        <translation>负载 max/mean</translation>
    </message>
    <message>
        <source>Peak GB/s</source>
        <translation>峰值 GB/s</translation>
    </message>
    <message>
        <source>lm_loss at the run&apos;s last step with it</source>
        <translation>该运行最后一个有 lm_loss 的步的值</translation>
    </message>
    <message>
        <source>val_loss at the run&apos;s last step with it</source>
        <translation>该运行最后一个有 val_loss 的步的值</translation>
    </message>
    <message>
        <source>The busiest expert&apos;s load ÷ the layer&apos;s mean, worst over layers and the last steps (stage 3&apos;s window)</source>
        <translation>最忙专家的负载 ÷ 该层均值，取各层及最后若干步（阶段 3 的窗口）中的最大值</translation>
    </message>
    <message>
        <source>The highest effective all-to-all bandwidth over message sizes</source>
        <translation>各消息大小中最高的 all-to-all 有效带宽</translation>
    </message>
</context>
<context>
    <name>moewb::gui::HostKeyDialog</name>
    <message>
        <source>Host key CHANGED: %1</source>
        <translation>主机密钥已更改:%1</translation>
    </message>
    <message>
        <source>Unknown host key: %1</source>
        <translation>未知主机密钥:%1</translation>
    </message>
    <message>
        <source>WARNING: the host key of %1 has CHANGED. The connection is refused.</source>
        <translation>警告:%1 的主机密钥已更改。连接已被拒绝。</translation>
    </message>
    <message>
        <source>The host key of %1 is not known on this computer.</source>
        <translation>本机不认识 %1 的主机密钥。</translation>
    </message>
    <message>
        <source>Node:</source>
        <translation>节点:</translation>
    </message>
    <message>
        <source>Host in known_hosts:</source>
        <translation>known_hosts 中的主机:</translation>
    </message>
    <message>
        <source>Key offered now:</source>
        <translation>现在提供的密钥:</translation>
    </message>
    <message>
        <source>Key type:</source>
        <translation>密钥类型:</translation>
    </message>
    <message>
        <source>Fingerprint:</source>
        <translation>指纹:</translation>
    </message>
    <message>
        <source>(an entry that could not be read)</source>
        <translation>(一条无法读取的记录)</translation>
    </message>
    <message>
        <source>known_hosts has:</source>
        <translation>known_hosts 记录的是:</translation>
    </message>
    <message>
        <source>known_hosts file:</source>
        <translation>known_hosts 文件:</translation>
    </message>
    <message>
        <source>The node offers another key than the one recorded for it. This happens when a node is reinstalled, and also when someone intercepts the connection (a man-in-the-middle attack). Ask the node&apos;s administrator for its fingerprint (ssh-keygen -lf on the node&apos;s host key). Only when it is the one offered now, remove the old entry (ssh-keygen -R HOST -f KNOWN_HOSTS) and check the cluster again.</source>
        <translation>该节点提供的密钥与记录的不同。节点重装后会这样,有人截取连接(中间人攻击)时也会这样。请向节点管理员索取其指纹(在节点上对主机密钥运行 ssh-keygen -lf)。只有当它与现在提供的指纹一致时,才删除旧记录(ssh-keygen -R HOST -f KNOWN_HOSTS)并重新检查集群。</translation>
    </message>
    <message>
        <source>Compare the fingerprint with the one the node&apos;s administrator reads on the node (ssh-keygen -lf /etc/ssh/ssh_host_%1_key.pub). Accept only when they are the same. &quot;Accept once&quot; trusts the key for this check only; &quot;Accept and remember&quot; adds it to known_hosts, so the next connection is silent.</source>
        <translation>请将此指纹与节点管理员在节点上读到的指纹比对(ssh-keygen -lf /etc/ssh/ssh_host_%1_key.pub)。只有两者相同时才接受。“接受一次”只在本次检查中信任该密钥;“接受并记住”会把它写入 known_hosts,以后连接不再询问。</translation>
    </message>
    <message>
        <source>Accept &amp;once</source>
        <translation>接受一次(&amp;O)</translation>
    </message>
    <message>
        <source>Accept and &amp;remember</source>
        <translation>接受并记住(&amp;R)</translation>
    </message>
    <message>
        <source>Re&amp;ject</source>
        <translation>拒绝(&amp;J)</translation>
    </message>
</context>
<context>
    <name>moewb::gui::ImportDialog</name>
    <message>
        <source>Import measurements</source>
        <translation>导入测量数据</translation>
    </message>
    <message>
        <source>Cancel import</source>
        <translation>取消导入</translation>
    </message>
    <message>
        <source>✖ %1</source>
        <translation>✖ %1</translation>
    </message>
    <message>
        <source>default: %1</source>
        <translation>默认：%1</translation>
    </message>
    <message>
        <source>No project is open.</source>
        <translation>未打开项目。</translation>
    </message>
    <message>
        <source>An import is still finishing; try again in a moment.</source>
        <translation>上一次导入仍在收尾；请稍后再试。</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <source>F&amp;ormat</source>
        <translation>格式(&amp;O)</translation>
    </message>
    <message>
        <source>Config &amp;record</source>
        <translation>配置记录(&amp;R)</translation>
    </message>
    <message>
        <source>Run &amp;name</source>
        <translation>运行名称(&amp;N)</translation>
    </message>
    <message>
        <source>The files and folders below become ONE run: a Megatron-Core --save folder with its rank files, a TensorBoard folder, console logs. They are read and checked against each other first; nothing is stored until you press Import.</source>
        <translation>下面的文件和文件夹合起来成为同一个运行：Megatron-Core 的 --save 文件夹及其中的 rank 文件、TensorBoard 文件夹、控制台日志。它们会先被读取并相互核对；点击“导入”之前不会存储任何内容。</translation>
    </message>
    <message>
        <source>type a path and press Return, or drop files here</source>
        <translation>输入路径后按回车，或把文件拖放到这里</translation>
    </message>
    <message>
        <source>&amp;Add</source>
        <translation>添加(&amp;A)</translation>
    </message>
    <message>
        <source>Add the typed file or folder to the list</source>
        <translation>把输入的文件或文件夹添加到列表</translation>
    </message>
    <message>
        <source>&amp;File or folder</source>
        <translation>文件或文件夹(&amp;F)</translation>
    </message>
    <message>
        <source>What is imported, as one run. Folders are walked; Delete removes the selected entries.</source>
        <translation>要作为一个运行导入的内容。文件夹会被逐层遍历；按 Delete 键移除选中的条目。</translation>
    </message>
    <message>
        <source>Add fi&amp;les…</source>
        <translation>添加文件(&amp;L)…</translation>
    </message>
    <message>
        <source>Add fol&amp;der…</source>
        <translation>添加文件夹(&amp;D)…</translation>
    </message>
    <message>
        <source>Re&amp;move</source>
        <translation>移除(&amp;M)</translation>
    </message>
    <message>
        <source>choose the config record</source>
        <translation>选择配置记录</translation>
    </message>
    <message>
        <source>a new run</source>
        <translation>新运行</translation>
    </message>
    <message>
        <source>added to an existing run</source>
        <translation>添加到已有运行</translation>
    </message>
    <message>
        <source>&amp;Store as</source>
        <translation>存储为(&amp;S)</translation>
    </message>
    <message>
        <source>choose the run</source>
        <translation>选择运行</translation>
    </message>
    <message>
        <source>Add &amp;to run</source>
        <translation>添加到运行(&amp;T)</translation>
    </message>
    <message>
        <source>Detect each file&apos;s format</source>
        <translation>自动识别每个文件的格式</translation>
    </message>
    <message>
        <source>wildcards, comma separated: *.csv, old/*</source>
        <translation>通配符，用逗号分隔：*.csv, old/*</translation>
    </message>
    <message>
        <source>Files in the folders that match one of these wildcards (by name or by path inside the folder) are left out.</source>
        <translation>文件夹中与任一通配符匹配（按文件名或文件夹内的路径）的文件会被排除。</translation>
    </message>
    <message>
        <source>E&amp;xclude</source>
        <translation>排除(&amp;X)</translation>
    </message>
    <message>
        <source>Allow &amp;partial steps</source>
        <translation>允许步不一致(&amp;P)</translation>
    </message>
    <message>
        <source>When the rank files do not all hold the same steps, import the steps every rank file has (the plan says which were left out). Off: refuse.</source>
        <translation>各 rank 文件包含的步不一致时，只导入每个 rank 文件都有的步（计划中会说明略去了哪些步）。不勾选：拒绝导入。</translation>
    </message>
    <message>
        <source>Chec&amp;k again</source>
        <translation>重新检查(&amp;K)</translation>
    </message>
    <message>
        <source>Read and check the files now (they are checked after every change anyway)</source>
        <translation>立即读取并检查文件（每次更改后也会自动检查）</translation>
    </message>
    <message>
        <source>&lt;b&gt;Plan&lt;/b&gt; — what Import will store</source>
        <translation>&lt;b&gt;计划&lt;/b&gt; — 导入时将存储的内容</translation>
    </message>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Format</source>
        <translation>格式</translation>
    </message>
    <message>
        <source>Rows</source>
        <translation>行数</translation>
    </message>
    <message>
        <source>What it gives</source>
        <translation>提供的数据</translation>
    </message>
    <message>
        <source>What the merge did, or what is wrong with the files, appears here.</source>
        <translation>合并做了哪些处理，或文件有什么问题，会显示在这里。</translation>
    </message>
    <message>
        <source>&amp;Import</source>
        <translation>导入(&amp;I)</translation>
    </message>
    <message>
        <source>%1 (incomplete)</source>
        <translation>%1（不完整）</translation>
    </message>
    <message>
        <source>%1
folder: every log in it is read</source>
        <translation>%1
文件夹：读取其中的所有日志</translation>
    </message>
    <message>
        <source>%1
does not exist</source>
        <translation>%1
不存在</translation>
    </message>
    <message>
        <source>Add files to import</source>
        <translation>添加要导入的文件</translation>
    </message>
    <message>
        <source>Add a folder to import</source>
        <translation>添加要导入的文件夹</translation>
    </message>
    <message>
        <source>%1 (record %2)</source>
        <translation>%1（配置记录 %2）</translation>
    </message>
    <message>
        <source>⚠ %1 is an incomplete (draft) record. The run is stored, but every stage refuses to compare it until the record is complete (Records ▸ %1).</source>
        <translation>⚠ %1 是不完整的（草稿）配置记录。运行会被存储，但在配置记录补全之前，每个阶段都会拒绝比较它（配置记录 ▸ %1）。</translation>
    </message>
    <message>
        <source>⚠ The project has no config record yet; add one first (Records ▸ New record…).</source>
        <translation>⚠ 项目中还没有配置记录；请先添加一条（配置记录 ▸ 新建记录…）。</translation>
    </message>
    <message>
        <source>Every run belongs to a config record and the project has none; add one first (Records ▸ New record…).</source>
        <translation>每个运行都属于一条配置记录，而项目中还没有；请先添加一条（配置记录 ▸ 新建记录…）。</translation>
    </message>
    <message>
        <source>Choose the run to add the files to.</source>
        <translation>请选择要把文件添加到哪个运行。</translation>
    </message>
    <message>
        <source>There is no run named %1 any more; choose another.</source>
        <translation>名为 %1 的运行已不存在；请另选一个。</translation>
    </message>
    <message>
        <source>Choose the config record the run belongs to.</source>
        <translation>请选择该运行所属的配置记录。</translation>
    </message>
    <message>
        <source>A run named %1 already exists; choose another name, or store as added to an existing run.</source>
        <translation>名为 %1 的运行已存在；请换一个名称，或改为“添加到已有运行”。</translation>
    </message>
    <message>
        <source>Add the files and folders of one training: Add files…, Add folder…, type a path, or drop them here.</source>
        <translation>添加同一次训练的文件和文件夹：点击“添加文件…”或“添加文件夹…”，输入路径，或把它们拖放到这里。</translation>
    </message>
    <message>
        <source>Choose the config record first: its experts and parallelism check the files and merge the rank files.</source>
        <translation>请先选择配置记录：要用其中的专家数和并行设置检查文件并合并 rank 文件。</translation>
    </message>
    <message numerus="yes">
        <source>Reading and checking %n path(s)…</source>
        <translation>
            <numerusform>正在读取并检查 %n 个路径…</numerusform>
        </translation>
    </message>
    <message>
        <source>Check cancelled; press Check again to read the files.</source>
        <translation>检查已取消；点击“重新检查”即可读取文件。</translation>
    </message>
    <message>
        <source>Import cancelled; nothing was stored.</source>
        <translation>导入已取消；未存储任何内容。</translation>
    </message>
    <message numerus="yes">
        <source>✖ The files cannot be imported (%n problem(s), listed above); nothing was stored.</source>
        <translation>
            <numerusform>✖ 无法导入这些文件（%n 个问题，见上方列表）；未存储任何内容。</numerusform>
        </translation>
    </message>
    <message>
        <source>skipped</source>
        <translation>已跳过</translation>
    </message>
    <message>
        <source>added to run %1</source>
        <translation>添加到运行 %1</translation>
    </message>
    <message>
        <source>one new run of record %1</source>
        <translation>配置记录 %1 的一个新运行</translation>
    </message>
    <message>
        <source>%1 step metrics</source>
        <translation>%1 条步指标</translation>
    </message>
    <message>
        <source>%1 expert-load blocks</source>
        <translation>%1 个专家负载块</translation>
    </message>
    <message>
        <source>%1 communication samples</source>
        <translation>%1 条通信样本</translation>
    </message>
    <message>
        <source>no data</source>
        <translation>无数据</translation>
    </message>
    <message numerus="yes">
        <source>✔ %n file(s) read, %1 skipped → %2: %3.</source>
        <translation>
            <numerusform>✔ 已读取 %n 个文件，跳过 %1 个 → %2：%3。</numerusform>
        </translation>
    </message>
    <message>
        <source>• The files fit together; nothing had to be merged.</source>
        <translation>• 文件相互吻合；无需合并。</translation>
    </message>
    <message numerus="yes">
        <source>✖ The files cannot be imported as one run: %n problem(s). Fix them (or leave the file out) and the files are checked again; nothing is stored.</source>
        <translation>
            <numerusform>✖ 这些文件无法作为一个运行导入：%n 个问题。修正后（或去掉有问题的文件）会重新检查；不会存储任何内容。</numerusform>
        </translation>
    </message>
    <message>
        <source>Checking the files first…</source>
        <translation>正在先检查文件…</translation>
    </message>
    <message>
        <source>Add the files or folders to import first.</source>
        <translation>请先添加要导入的文件或文件夹。</translation>
    </message>
    <message>
        <source>Adding to run %1…</source>
        <translation>正在添加到运行 %1…</translation>
    </message>
    <message>
        <source>Storing run %1…</source>
        <translation>正在存储运行 %1…</translation>
    </message>
    <message numerus="yes">
        <source>✔ Added %n file(s) to run “%1”.</source>
        <translation>
            <numerusform>✔ 已将 %n 个文件添加到运行“%1”。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>✔ Imported %n file(s) as run “%1”.</source>
        <translation>
            <numerusform>✔ 已将 %n 个文件导入为运行“%1”。</numerusform>
        </translation>
    </message>
    <message>
        <source>Stored as run “%1”. Change the list, or press Check again, to import more.</source>
        <translation>已存储为运行“%1”。如需继续导入，请修改列表或点击“重新检查”。</translation>
    </message>
    <message>
        <source>Import is possible once the files are checked without a problem.</source>
        <translation>文件检查无误后即可导入。</translation>
    </message>
    <message>
        <source>Nothing is stored until you press Import.</source>
        <translation>点击“导入”之前不会存储任何内容。</translation>
    </message>
    <message>
        <source>Refuse &amp;damaged log lines</source>
        <translation>拒绝损坏的日志行(&amp;D)</translation>
    </message>
    <message>
        <source>Console logs (Megatron, NeMo, torchtitan): refuse a file at its first damaged line. Off: keep the readable fields of a damaged line and list the line in the plan.</source>
        <translation>控制台日志（Megatron、NeMo、torchtitan）：在第一处损坏的行拒绝整个文件。关闭时：保留损坏行中可读的字段，并在导入计划中列出该行。</translation>
    </message>
    <message>
        <source>the first with data</source>
        <translation>第一个有数据的</translation>
    </message>
    <message>
        <source>The log holds several all-to-all tests: the one to import (the plan lists the tests left out, with their lines).</source>
        <translation>该日志包含多个 all-to-all 测试：选择要导入的那个（计划会列出未导入的测试及其行号）。</translation>
    </message>
    <message>
        <source>All-to-all t&amp;est</source>
        <translation>All-to-all 测试(&amp;E)</translation>
    </message>
</context>
<context>
    <name>moewb::gui::ImportJob</name>
    <message>
        <source>listing the files…</source>
        <translation>正在列出文件…</translation>
    </message>
    <message>
        <source>checking %1 files against each other…</source>
        <translation>正在相互核对 %1 个文件…</translation>
    </message>
    <message>
        <source>reading %1 (%2 of %3)…</source>
        <translation>正在读取 %1（第 %2 个，共 %3 个）…</translation>
    </message>
    <message>
        <source>Import cancelled; nothing was stored.</source>
        <translation>导入已取消；未存储任何内容。</translation>
    </message>
    <message>
        <source>opening the project…</source>
        <translation>正在打开项目…</translation>
    </message>
    <message>
        <source>There is no run named %1 to add to.</source>
        <translation>没有名为 %1 的运行可供添加。</translation>
    </message>
    <message>
        <source>checking the files against run %1…</source>
        <translation>正在对照运行 %1 检查文件…</translation>
    </message>
    <message>
        <source>storing run %1: %2 %</source>
        <translation>正在存储运行 %1：%2 %</translation>
    </message>
</context>
<context>
    <name>moewb::gui::MainWindow</name>
    <message>
        <source>Quit while work is running?</source>
        <translation>任务仍在运行，确定退出？</translation>
    </message>
    <message>
        <source>%1

Quit anyway? The work is cancelled; nothing half-done is stored.</source>
        <translation>%1

仍要退出吗？任务将被取消；不会存储未完成的结果。</translation>
    </message>
    <message>
        <source>Open project</source>
        <translation>打开项目</translation>
    </message>
    <message>
        <source>DEMO — this project holds synthetic data made up to show every page; it measures nothing. Start your own with File → New evaluation.</source>
        <translation>演示 — 此项目包含为展示各页面而编造的合成数据，不代表任何测量。请通过 文件 → 新建评估 开始你自己的评估。</translation>
    </message>
    <message>
        <source> DEMO · synthetic data </source>
        <translation> 演示 · 合成数据 </translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;New evaluation…</source>
        <translation>新建评估(&amp;N)…</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>打开(&amp;O)…</translation>
    </message>
    <message>
        <source>Open &amp;recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>Open the &amp;demo (synthetic data)</source>
        <translation>打开演示(&amp;D)（合成数据）</translation>
    </message>
    <message>
        <source>&amp;Import…</source>
        <translation>导入(&amp;I)…</translation>
    </message>
    <message>
        <source>&amp;Export report…</source>
        <translation>导出报告(&amp;E)…</translation>
    </message>
    <message>
        <source>Export report</source>
        <translation>导出报告</translation>
    </message>
    <message>
        <source>PDF (*.pdf)</source>
        <translation>PDF (*.pdf)</translation>
    </message>
    <message>
        <source>&amp;Reload</source>
        <translation>重新加载(&amp;R)</translation>
    </message>
    <message>
        <source>Re-read the project file (F5; Ctrl+R on a stage page, where F5 evaluates)</source>
        <translation>重新读取项目文件（F5；在阶段页面上用 Ctrl+R，因为那里 F5 用于评估）</translation>
    </message>
    <message>
        <source>&amp;Close project</source>
        <translation>关闭项目(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>Stage &amp;%1 · %2</source>
        <translation>阶段 &amp;%1 · %2</translation>
    </message>
    <message>
        <source>&amp;Warnings…</source>
        <translation>警告(&amp;W)…</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About MoE Workbench</source>
        <translation>关于 MoE Workbench(&amp;A)</translation>
    </message>
    <message>
        <source>About MoE Workbench</source>
        <translation>关于 MoE Workbench</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;MoE Workbench %1&lt;/b&gt;&lt;/p&gt;&lt;p&gt;Evaluate Mixture-of-Experts training on real clusters: communication baseline, dense control, expert load and loss, transfer to another cluster.&lt;/p&gt;&lt;p&gt;Project schema version %2.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;MoE Workbench %1&lt;/b&gt;&lt;/p&gt;&lt;p&gt;在真实集群上评估混合专家（MoE）训练：通信基线、稠密对照、专家负载与损失、迁移到另一集群。&lt;/p&gt;&lt;p&gt;项目模式版本 %2。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>(none yet)</source>
        <translation>（暂无）</translation>
    </message>
    <message>
        <source>%1 — missing</source>
        <translation>%1 — 文件缺失</translation>
    </message>
    <message>
        <source>Open the demo</source>
        <translation>打开演示</translation>
    </message>
    <message>
        <source>Writing the demo project to %1…</source>
        <translation>正在将演示项目写入 %1…</translation>
    </message>
    <message>
        <source>The demo could not be opened.</source>
        <translation>无法打开演示项目。</translation>
    </message>
    <message>
        <source>No project file at %1.</source>
        <translation>%1 处没有项目文件。</translation>
    </message>
    <message>
        <source>%1 [DEMO] — MoE Workbench</source>
        <translation>%1 [演示] — MoE Workbench</translation>
    </message>
    <message>
        <source>%1 — MoE Workbench</source>
        <translation>%1 — MoE Workbench</translation>
    </message>
    <message>
        <source>MoE Workbench</source>
        <translation>MoE Workbench</translation>
    </message>
    <message>
        <source>Open a project first: every import goes into a project&apos;s config record.</source>
        <translation>请先打开项目：每次导入都会归入项目中的某个配置记录。</translation>
    </message>
    <message>
        <source>Imported run %1.</source>
        <translation>已导入运行 %1。</translation>
    </message>
    <message>
        <source>New evaluation</source>
        <translation>新建评估</translation>
    </message>
    <message>
        <source>MoE Workbench projects (*.moewb)</source>
        <translation>MoE Workbench 项目 (*.moewb)</translation>
    </message>
    <message>
        <source>%1 already exists; choose another name.</source>
        <translation>%1 已存在；请换一个名称。</translation>
    </message>
    <message>
        <source>Exporting the report…</source>
        <translation>正在导出报告…</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Report written to %1.</source>
        <translation>报告已写入 %1。</translation>
    </message>
    <message>
        <source>Report export cancelled; no file was written.</source>
        <translation>报告导出已取消；未写入任何文件。</translation>
    </message>
    <message>
        <source>Report not written: %1</source>
        <translation>报告未写入：%1</translation>
    </message>
    <message>
        <source>The report is being exported.</source>
        <translation>正在导出报告。</translation>
    </message>
    <message>
        <source>An import is running.</source>
        <translation>正在导入。</translation>
    </message>
    <message>
        <source>The demo project is being written.</source>
        <translation>正在写入演示项目。</translation>
    </message>
    <message>
        <source>&amp;Preferences…</source>
        <translation>首选项(&amp;P)…</translation>
    </message>
    <message>
        <source>%1 (read-only) — MoE Workbench</source>
        <translation>%1（只读）— MoE Workbench</translation>
    </message>
    <message>
        <source>%1 — read-only</source>
        <translation>%1 — 只读</translation>
    </message>
    <message>
        <source>Measure a &amp;reference evaluation on this computer…</source>
        <translation>在本机上测量参考评估(&amp;R)…</translation>
    </message>
    <message>
        <source>&amp;Guide</source>
        <translation>指南(&amp;G)</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <source>Guide</source>
        <translation>指南</translation>
    </message>
    <message>
        <source>The guide (guide.md) is not installed with this copy of MoE Workbench.</source>
        <translation>此 MoE Workbench 副本未安装指南（guide.md）。</translation>
    </message>
    <message>
        <source>MoE Workbench guide</source>
        <translation>MoE Workbench 指南</translation>
    </message>
    <message>
        <source>Open a project</source>
        <translation>打开项目</translation>
    </message>
    <message>
        <source>Import files</source>
        <translation>导入文件</translation>
    </message>
    <message>
        <source>Export the report</source>
        <translation>导出报告</translation>
    </message>
    <message>
        <source>Ctrl+1 … Ctrl+4</source>
        <translation>Ctrl+1 … Ctrl+4</translation>
    </message>
    <message>
        <source>Open stage 1 … 4</source>
        <translation>打开阶段 1 … 4</translation>
    </message>
    <message>
        <source>Evaluate (on a stage page)</source>
        <translation>评估（在阶段页面上）</translation>
    </message>
    <message>
        <source>Reload the project</source>
        <translation>重新加载项目</translation>
    </message>
    <message>
        <source>Ctrl+wheel</source>
        <translation>Ctrl+滚轮</translation>
    </message>
    <message>
        <source>Zoom a plot (or click into it, then use the wheel)</source>
        <translation>缩放图表（或先点击图表，再用滚轮）</translation>
    </message>
    <message>
        <source>Double-click</source>
        <translation>双击</translation>
    </message>
    <message>
        <source>Reset a plot&apos;s view</source>
        <translation>重置图表视图</translation>
    </message>
    <message>
        <source>A plot&apos;s menu: copy, export, logarithmic y axis</source>
        <translation>图表菜单：复制、导出、对数 y 轴</translation>
    </message>
    <message>
        <source>Copy table rows as TSV</source>
        <translation>将表格行复制为 TSV</translation>
    </message>
    <message>
        <source>This guide</source>
        <translation>本指南</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>C&amp;lusters</source>
        <translation>集群(&amp;L)</translation>
    </message>
    <message>
        <source>Nothing stored in it was run. A clean copy is a new project with moewb&apos;s own tables and their rows, each checked; what moewb did not create is left out, and this file is not changed.</source>
        <translation>其中存储的任何内容都未被运行。干净副本是一个新项目，只含 moewb 自己的表及其各行（逐行检查）；不是 moewb 创建的内容被排除，此文件不会被修改。</translation>
    </message>
    <message>
        <source>Save a clean copy…</source>
        <translation>保存干净副本…</translation>
    </message>
    <message>
        <source>Save a clean copy</source>
        <translation>保存干净副本</translation>
    </message>
    <message>
        <source>Writing a clean copy to %1…</source>
        <translation>正在将干净副本写入 %1…</translation>
    </message>
    <message numerus="yes">
        <source>%n row(s) copied</source>
        <translation>
            <numerusform>已复制 %n 行</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n skipped.</source>
        <translation>
            <numerusform>跳过 %n 行。</numerusform>
        </translation>
    </message>
    <message>
        <source>Left out: %1</source>
        <translation>已排除：%1</translation>
    </message>
    <message numerus="yes">
        <source>… and %n more left out</source>
        <translation>
            <numerusform>… 另有 %n 项被排除</numerusform>
        </translation>
    </message>
    <message>
        <source>Table %1 not read: %2</source>
        <translation>表 %1 未读取：%2</translation>
    </message>
    <message numerus="yes">
        <source>Table %1: %n row(s) skipped</source>
        <translation>
            <numerusform>表 %1：跳过 %n 行</numerusform>
        </translation>
    </message>
    <message>
        <source>Wrote the clean copy %1.</source>
        <translation>已写入干净副本 %1。</translation>
    </message>
    <message>
        <source>Open the clean copy</source>
        <translation>打开干净副本</translation>
    </message>
    <message>
        <source>A clean copy of a project is being written.</source>
        <translation>正在写入项目的干净副本。</translation>
    </message>
</context>
<context>
    <name>moewb::gui::PreferencesDialog</name>
    <message>
        <source>Preferences</source>
        <translation>首选项</translation>
    </message>
    <message>
        <source>System default (%1)</source>
        <translation>系统默认（%1）</translation>
    </message>
    <message>
        <source>&amp;Language:</source>
        <translation>语言(&amp;L)：</translation>
    </message>
    <message>
        <source>The language changes the next time MoE Workbench starts.</source>
        <translation>语言将在下次启动 MoE Workbench 时生效。</translation>
    </message>
    <message>
        <source>System default</source>
        <translation>系统默认</translation>
    </message>
    <message>
        <source>The language changes the next time MoE Workbench starts. While the environment variable %1 is set (now: %2), it wins over this choice.</source>
        <translation>语言将在下次启动 MoE Workbench 时生效。只要设置了环境变量 %1（当前为：%2），就以它为准，而不是此处的选择。</translation>
    </message>
</context>
<context>
    <name>moewb::gui::ProjectBrowser</name>
    <message>
        <source>Project overview</source>
        <translation>项目概览</translation>
    </message>
    <message>
        <source>EVALUATION</source>
        <translation>评估</translation>
    </message>
    <message>
        <source>The four stages, in order: each opens once the one before passed or its stop was overridden with a written justification.</source>
        <translation>四个阶段依次进行：前一阶段通过，或其停止已写明理由豁免后，才会开启下一阶段。</translation>
    </message>
    <message>
        <source>RECORDS (%1)</source>
        <translation>配置记录（%1）</translation>
    </message>
    <message>
        <source>Config records: what each run ran with (SPEC §1).</source>
        <translation>配置记录：每次运行所用的配置（SPEC §1）。</translation>
    </message>
    <message numerus="yes">
        <source>Incomplete: %n field(s) missing or invalid; comparisons using it are refused.</source>
        <translation>
            <numerusform>不完整：%n 个字段缺失或无效；使用它的比较将被拒绝。</numerusform>
        </translation>
    </message>
    <message>
        <source>Complete config record</source>
        <translation>完整的配置记录</translation>
    </message>
    <message>
        <source>RUNS (%1)</source>
        <translation>运行（%1）</translation>
    </message>
    <message>
        <source>%1 run of record %2</source>
        <translation>%1 运行，配置记录 %2</translation>
    </message>
    <message>
        <source>CLUSTERS (%1)</source>
        <translation>集群（%1）</translation>
    </message>
    <message numerus="yes">
        <source>%1 (%n node(s))</source>
        <translation>
            <numerusform>%1（%n 个节点）</numerusform>
        </translation>
    </message>
    <message>
        <source>LEARN</source>
        <translation>学习</translation>
    </message>
    <message>
        <source>How MoE costs and routing work, for someone who knows dense training.</source>
        <translation>面向熟悉稠密训练的读者：MoE 的成本与路由如何运作。</translation>
    </message>
    <message>
        <source>Cost structure</source>
        <translation>成本结构</translation>
    </message>
    <message>
        <source>Where an MoE&apos;s cost comes from: parameters, memory, all-to-all bytes, step time.</source>
        <translation>MoE 的成本从何而来：参数、显存、all-to-all 字节数、步时间。</translation>
    </message>
    <message>
        <source>Routing lab</source>
        <translation>路由实验室</translation>
    </message>
    <message>
        <source>How Top-K, Expert-Choice and bias-balanced routers spread the load.</source>
        <translation>Top-K、Expert-Choice 和偏置均衡路由器如何分摊负载。</translation>
    </message>
    <message>
        <source>ASSESSMENT</source>
        <translation>评估表</translation>
    </message>
    <message>
        <source>The assessment sheet that goes into the report.</source>
        <translation>写入报告的评估表。</translation>
    </message>
    <message>
        <source>Stage %1 · %2 — %3
%4</source>
        <translation>阶段 %1 · %2 — %3
%4</translation>
    </message>
    <message>
        <source>%1 (this computer, %2 ranks)</source>
        <translation>%1（本机，%2 个 rank）</translation>
    </message>
</context>
<context>
    <name>moewb::gui::ProjectOverview</name>
    <message>
        <source>No project open</source>
        <translation>未打开项目</translation>
    </message>
    <message>
        <source>Open a project file (*.moewb) with File → Open (Ctrl+O), or start one with File → New evaluation (Ctrl+N).</source>
        <translation>通过 文件 → 打开（Ctrl+O）打开项目文件（*.moewb），或通过 文件 → 新建评估（Ctrl+N）新建一个。</translation>
    </message>
    <message>
        <source>&lt;tr&gt;&lt;td&gt;Config records&lt;/td&gt;&lt;td align=&apos;right&apos;&gt;&lt;b&gt;%1&lt;/b&gt;&lt;/td&gt;&lt;td&gt;%2&lt;/td&gt;&lt;/tr&gt;</source>
        <translation>&lt;tr&gt;&lt;td&gt;配置记录&lt;/td&gt;&lt;td align=&apos;right&apos;&gt;&lt;b&gt;%1&lt;/b&gt;&lt;/td&gt;&lt;td&gt;%2&lt;/td&gt;&lt;/tr&gt;</translation>
    </message>
    <message numerus="yes">
        <source>! %n incomplete: comparisons using them are refused</source>
        <translation>
            <numerusform>! %n 个不完整：使用它们的比较将被拒绝</numerusform>
        </translation>
    </message>
    <message>
        <source>&lt;tr&gt;&lt;td&gt;Runs&lt;/td&gt;&lt;td align=&apos;right&apos;&gt;&lt;b&gt;%1&lt;/b&gt;&lt;/td&gt;&lt;td&gt;&lt;/td&gt;&lt;/tr&gt;</source>
        <translation>&lt;tr&gt;&lt;td&gt;运行&lt;/td&gt;&lt;td align=&apos;right&apos;&gt;&lt;b&gt;%1&lt;/b&gt;&lt;/td&gt;&lt;td&gt;&lt;/td&gt;&lt;/tr&gt;</translation>
    </message>
    <message>
        <source>&lt;tr&gt;&lt;td&gt;Clusters&lt;/td&gt;&lt;td align=&apos;right&apos;&gt;&lt;b&gt;%1&lt;/b&gt;&lt;/td&gt;&lt;td&gt;&lt;/td&gt;&lt;/tr&gt;</source>
        <translation>&lt;tr&gt;&lt;td&gt;集群&lt;/td&gt;&lt;td align=&apos;right&apos;&gt;&lt;b&gt;%1&lt;/b&gt;&lt;/td&gt;&lt;td&gt;&lt;/td&gt;&lt;/tr&gt;</translation>
    </message>
    <message>
        <source>&lt;h3&gt;The method&lt;/h3&gt;&lt;ol&gt;&lt;li&gt;&lt;b&gt;Communication baseline&lt;/b&gt;: pure all-to-all at the target node count.&lt;/li&gt;&lt;li&gt;&lt;b&gt;Dense control&lt;/b&gt;: a dense model with similar activated parameters, same accounting.&lt;/li&gt;&lt;li&gt;&lt;b&gt;Expert load and loss&lt;/b&gt;: load ratio max/mean, drop rate, busiest-device share.&lt;/li&gt;&lt;li&gt;&lt;b&gt;Transfer&lt;/b&gt;: re-run stages 1–3 on the target cluster and compare baselines.&lt;/li&gt;&lt;/ol&gt;&lt;p&gt;Each stage opens only after the previous one passed, or its stop was overridden with a written justification. Every run needs a complete config record first. Ctrl+1 … Ctrl+4 open the stages.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;方法&lt;/h3&gt;&lt;ol&gt;&lt;li&gt;&lt;b&gt;通信基线&lt;/b&gt;：在目标节点数下测量纯 all-to-all。&lt;/li&gt;&lt;li&gt;&lt;b&gt;稠密对照&lt;/b&gt;：激活参数量相近的稠密模型，使用相同的计算口径。&lt;/li&gt;&lt;li&gt;&lt;b&gt;专家负载与损失&lt;/b&gt;：负载比（最大/平均）、丢弃率、最忙设备占比。&lt;/li&gt;&lt;li&gt;&lt;b&gt;迁移&lt;/b&gt;：在目标集群上重跑阶段 1–3 并比较基线。&lt;/li&gt;&lt;/ol&gt;&lt;p&gt;每个阶段只有在前一阶段通过，或其停止已写明理由豁免后才会开启。每次运行都需要先有完整的配置记录。Ctrl+1 … Ctrl+4 打开各阶段。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Next:&lt;/b&gt; add a config record: open RECORDS in the browser and press &lt;i&gt;New record…&lt;/i&gt; (or &lt;code&gt;moewb record add FILE&lt;/code&gt;).&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;下一步：&lt;/b&gt;添加配置记录：在浏览栏中打开“配置记录”，点击&lt;i&gt;新建记录…&lt;/i&gt;（或运行 &lt;code&gt;moewb record add FILE&lt;/code&gt;）。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Next:&lt;/b&gt; complete the records marked “!” in the browser.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;下一步：&lt;/b&gt;补全浏览栏中标有“!”的配置记录。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;File:&lt;/b&gt; %1&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;文件：&lt;/b&gt;%1&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>moewb::gui::RecordEditor</name>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>Write the record to the project file (Ctrl+S)</source>
        <translation>将配置记录写入项目文件（Ctrl+S）</translation>
    </message>
    <message>
        <source>New record…</source>
        <translation>新建记录…</translation>
    </message>
    <message>
        <source>Duplicate…</source>
        <translation>复制…</translation>
    </message>
    <message>
        <source>A new record with every field of this one, e.g. for the dense control</source>
        <translation>新建一条与此记录字段完全相同的记录，例如用于稠密对照</translation>
    </message>
    <message>
        <source>Fill the hardware fields from the node inventory of cluster:</source>
        <translation>用以下集群的节点清单填写硬件字段：</translation>
    </message>
    <message>
        <source>Fill from node inventory</source>
        <translation>从节点清单填写</translation>
    </message>
    <message>
        <source>Reads the probe&apos;s --inventory facts stored with the cluster&apos;s nodes: node count, GPUs per node, GPU model, network and fabric. Review, then Save.</source>
        <translation>读取随集群节点保存的探针 --inventory 信息：节点数、每节点 GPU 数、GPU 型号、网络与互连。请核对后保存。</translation>
    </message>
    <message>
        <source>%1 — %2 (%3)</source>
        <translation>%1 — %2（%3）</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>free text, e.g. what this configuration is for</source>
        <translation>自由文本，例如此配置的用途</translation>
    </message>
    <message>
        <source>notes</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>Save config record</source>
        <translation>保存配置记录</translation>
    </message>
    <message>
        <source>— not set —</source>
        <translation>— 未设置 —</translation>
    </message>
    <message>
        <source>e.g. 1.25, or none</source>
        <translation>例如 1.25，或 none</translation>
    </message>
    <message>
        <source>The project has no clusters yet (moewb cluster add).</source>
        <translation>该项目还没有集群（moewb cluster add）。</translation>
    </message>
    <message>
        <source>Config records</source>
        <translation>配置记录</translation>
    </message>
    <message>
        <source>Choose a record in the browser, or start one with New record…</source>
        <translation>在浏览栏中选择一条配置记录，或点击“新建记录…”新建一条</translation>
    </message>
    <message>
        <source>Config record · %1</source>
        <translation>配置记录 · %1</translation>
    </message>
    <message>
        <source>✔ Complete: every field is present and valid; runs using this record can be compared.</source>
        <translation>✔ 完整：所有字段均已填写且有效；使用此记录的运行可以比较。</translation>
    </message>
    <message numerus="yes">
        <source>! Incomplete: %n field(s) missing or invalid. Any comparison that includes a run with this record is refused until they are fixed.</source>
        <translation>
            <numerusform>! 不完整：%n 个字段缺失或无效。在修正之前，任何包含使用此记录的运行的比较都将被拒绝。</numerusform>
        </translation>
    </message>
    <message>
        <source>&lt;b&gt;Missing or invalid — fix these first:&lt;/b&gt;&lt;ul style=&apos;margin:0&apos;&gt;</source>
        <translation>&lt;b&gt;缺失或无效 — 请先修正：&lt;/b&gt;&lt;ul style=&apos;margin:0&apos;&gt;</translation>
    </message>
    <message>
        <source>(record)</source>
        <translation>（记录）</translation>
    </message>
    <message>
        <source>Save *</source>
        <translation>保存 *</translation>
    </message>
    <message>
        <source>No runs use this record yet.</source>
        <translation>还没有运行使用此记录。</translation>
    </message>
    <message>
        <source>No runs use this record yet; once they do, comparisons including them are blocked until the fields above are filled.</source>
        <translation>还没有运行使用此记录；一旦有运行使用它，在填好上面的字段之前，包含这些运行的比较都会被阻止。</translation>
    </message>
    <message numerus="yes">
        <source>✖ Comparisons blocked for %n run(s) using this record (%1) until these are filled: %2.</source>
        <translation>
            <numerusform>✖ 使用此记录的 %n 个运行（%1）的比较已被阻止，需先填写：%2。</numerusform>
        </translation>
    </message>
    <message>
        <source>Runs using this record (%1): %2. They can be compared.</source>
        <translation>使用此记录的运行（%1）：%2。它们可以比较。</translation>
    </message>
    <message>
        <source>No record is open.</source>
        <translation>未打开配置记录。</translation>
    </message>
    <message>
        <source>Saved %1: complete.</source>
        <translation>已保存 %1：完整。</translation>
    </message>
    <message numerus="yes">
        <source>Saved %1: still %n field(s) missing or invalid.</source>
        <translation>
            <numerusform>已保存 %1：仍有 %n 个字段缺失或无效。</numerusform>
        </translation>
    </message>
    <message>
        <source>A record needs a name.</source>
        <translation>配置记录需要名称。</translation>
    </message>
    <message>
        <source>No project is open.</source>
        <translation>未打开项目。</translation>
    </message>
    <message>
        <source>Duplicate config record</source>
        <translation>复制配置记录</translation>
    </message>
    <message>
        <source>New config record</source>
        <translation>新建配置记录</translation>
    </message>
    <message>
        <source>Name of the new record:</source>
        <translation>新记录的名称：</translation>
    </message>
    <message>
        <source>No cluster named &quot;%1&quot; in this project.</source>
        <translation>此项目中没有名为“%1”的集群。</translation>
    </message>
    <message>
        <source>Filled from cluster %1: %2. %3 Review, then Save.</source>
        <translation>已从集群 %1 填写：%2。%3 请核对后保存。</translation>
    </message>
</context>
<context>
    <name>moewb::gui::ReferenceDialog</name>
    <message>
        <source>Measure a reference evaluation on this computer</source>
        <translation>在本机上测量参考评估</translation>
    </message>
    <message>
        <source>Runs the whole four-stage method on measurements taken here: four tiny language-model trainings (dense, and MoE with capacity factor 1.0, 1.25 and dropless; 4 processes on the CPU) with the collector attached, and stage 1 on two clusters made on this computer (loopback, and — as root — network namespaces behind a slower shaped link). Every number is measured; the scale is tiny.</source>
        <translation>在本机实测的数据上运行完整的四阶段方法：四次微型语言模型训练（稠密模型，以及容量因子 1.0、1.25 和无丢弃的 MoE；CPU 上 4 个进程），挂接采集器；并在本机构造的两个集群上运行阶段 1（回环，以及——以 root 运行时——位于较慢限速链路之后的网络命名空间）。每个数字都是实测的；规模很小。</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Project file:</source>
        <translation>项目文件：</translation>
    </message>
    <message>
        <source>Quick (a few minutes; fewer steps and message sizes)</source>
        <translation>快速（几分钟；更少的步数和消息大小）</translation>
    </message>
    <message>
        <source>Replace the file if it exists</source>
        <translation>文件已存在时替换</translation>
    </message>
    <message>
        <source>Not started.</source>
        <translation>尚未开始。</translation>
    </message>
    <message>
        <source>The trainings&apos; and probes&apos; output appears here.</source>
        <translation>训练和探针的输出显示在这里。</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>Reference project</source>
        <translation>参考项目</translation>
    </message>
    <message>
        <source>MoE Workbench projects (*.moewb)</source>
        <translation>MoE Workbench 项目 (*.moewb)</translation>
    </message>
    <message>
        <source>Give the project file to write.</source>
        <translation>请给出要写入的项目文件。</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>正在启动…</translation>
    </message>
    <message>
        <source>Done in %1 s: %2</source>
        <translation>用时 %1 秒完成：%2</translation>
    </message>
    <message>
        <source>Cancelled: nothing was kept.</source>
        <translation>已取消：未保留任何内容。</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>失败：%1</translation>
    </message>
    <message>
        <source>Cancelling: stopping the trainings and probes…</source>
        <translation>正在取消：停止训练和探针…</translation>
    </message>
</context>
<context>
    <name>moewb::gui::RunActions</name>
    <message>
        <source>“%1”</source>
        <translation>“%1”</translation>
    </message>
    <message>
        <source>The project is read-only: runs cannot be changed. Copy it to a writable folder to change it.</source>
        <translation>项目为只读：不能修改运行。请复制到可写的文件夹后再修改。</translation>
    </message>
    <message>
        <source>Open a project first.</source>
        <translation>请先打开一个项目。</translation>
    </message>
    <message>
        <source>Rename…</source>
        <translation>重命名…</translation>
    </message>
    <message>
        <source>Tag…</source>
        <translation>标签…</translation>
    </message>
    <message>
        <source>Move to record…</source>
        <translation>移到配置记录…</translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation>删除…</translation>
    </message>
    <message numerus="yes">
        <source>Delete %n runs…</source>
        <translation>
            <numerusform>删除 %n 个运行…</numerusform>
        </translation>
    </message>
    <message>
        <source>Compare with…</source>
        <translation>与其他运行比较…</translation>
    </message>
    <message numerus="yes">
        <source>Compare selected (%n)</source>
        <translation>
            <numerusform>比较所选（%n 个）</numerusform>
        </translation>
    </message>
    <message>
        <source>Rename run</source>
        <translation>重命名运行</translation>
    </message>
    <message>
        <source>New name for run “%1”:</source>
        <translation>运行“%1”的新名称：</translation>
    </message>
    <message>
        <source>Run “%1” was not renamed: %2</source>
        <translation>运行“%1”未重命名：%2</translation>
    </message>
    <message>
        <source>Run “%1” is now “%2”; the verdicts that used it follow it.</source>
        <translation>运行“%1”已改名为“%2”；使用它的判定随之更新。</translation>
    </message>
    <message>
        <source>Tag run</source>
        <translation>为运行加标签</translation>
    </message>
    <message>
        <source>Tags of run “%1”, separated by commas (empty removes them):</source>
        <translation>运行“%1”的标签，用逗号分隔（留空则删除全部标签）：</translation>
    </message>
    <message>
        <source>The tags of run “%1” were not saved: %2</source>
        <translation>运行“%1”的标签未保存：%2</translation>
    </message>
    <message>
        <source>Run “%1” has no tags now.</source>
        <translation>运行“%1”现在没有标签。</translation>
    </message>
    <message>
        <source>Run “%1” tagged %2.</source>
        <translation>运行“%1”的标签：%2。</translation>
    </message>
    <message>
        <source>Config record for run “%1” (now “%2”):</source>
        <translation>运行“%1”的配置记录（当前为“%2”）：</translation>
    </message>
    <message numerus="yes">
        <source>Config record for %n runs (%1):</source>
        <translation>
            <numerusform>这 %n 个运行的配置记录（%1）：</numerusform>
        </translation>
    </message>
    <message>
        <source>Move to record</source>
        <translation>移到配置记录</translation>
    </message>
    <message>
        <source>Run “%1” was not moved: %2</source>
        <translation>运行“%1”未移动：%2</translation>
    </message>
    <message numerus="yes">
        <source>%n run(s) moved to record “%1”: %2. Re-evaluate the stages that used them.</source>
        <translation>
            <numerusform>%n 个运行已移到配置记录“%1”：%2。请重新评估使用过它们的阶段。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n communication sample(s)</source>
        <translation>
            <numerusform>%n 个通信样本</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>metrics of %n step(s)</source>
        <translation>
            <numerusform>%n 步的指标</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n expert-load block(s)</source>
        <translation>
            <numerusform>%n 个专家负载数据块</numerusform>
        </translation>
    </message>
    <message>
        <source>Delete run “%1” from the project?</source>
        <translation>从项目中删除运行“%1”？</translation>
    </message>
    <message numerus="yes">
        <source>Delete these %n runs from the project? %1</source>
        <translation>
            <numerusform>从项目中删除这 %n 个运行？%1</numerusform>
        </translation>
    </message>
    <message>
        <source>It holds no measurements.</source>
        <translation>它不含测量数据。</translation>
    </message>
    <message>
        <source>Deleted with it: %1, and any assessment evidence that links to it.</source>
        <translation>一并删除：%1，以及链接到它的评估证据。</translation>
    </message>
    <message>
        <source>stage %1 (%2)</source>
        <translation>阶段 %1（%2）</translation>
    </message>
    <message>
        <source>The saved verdicts of %1 used it; they stay, and say “no longer there” until re-evaluated.</source>
        <translation>%1 已保存的判定使用了它；判定会保留，并在重新评估前显示“已不存在”。</translation>
    </message>
    <message>
        <source>The files it was imported from are not touched. This cannot be undone.</source>
        <translation>导入时所用的文件不受影响。此操作无法撤销。</translation>
    </message>
    <message>
        <source>Delete run</source>
        <translation>删除运行</translation>
    </message>
    <message>
        <source>Delete runs</source>
        <translation>删除运行</translation>
    </message>
    <message numerus="yes">
        <source>Delete %n runs</source>
        <translation>
            <numerusform>删除 %n 个运行</numerusform>
        </translation>
    </message>
    <message>
        <source>Nothing was deleted: %1</source>
        <translation>未删除任何内容：%1</translation>
    </message>
    <message numerus="yes">
        <source>Deleted %n run(s): %1.</source>
        <translation>
            <numerusform>已删除 %n 个运行：%1。</numerusform>
        </translation>
    </message>
    <message>
        <source>Compare runs</source>
        <translation>比较运行</translation>
    </message>
    <message>
        <source>Tick the runs to compare (two or more):</source>
        <translation>勾选要比较的运行（两个或更多）：</translation>
    </message>
    <message>
        <source>%1 — %2, record %3</source>
        <translation>%1 — %2，配置记录 %3</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>比较</translation>
    </message>
</context>
<context>
    <name>moewb::gui::RunPage</name>
    <message>
        <source>Rename…</source>
        <translation>重命名…</translation>
    </message>
    <message>
        <source>Tag…</source>
        <translation>标签…</translation>
    </message>
    <message>
        <source>Move to record…</source>
        <translation>移到配置记录…</translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation>删除…</translation>
    </message>
    <message>
        <source>Compare with…</source>
        <translation>与其他运行比较…</translation>
    </message>
    <message>
        <source>Metrics over steps</source>
        <translation>各步的指标</translation>
    </message>
    <message>
        <source>&amp;Metric:</source>
        <translation>指标(&amp;M)：</translation>
    </message>
    <message>
        <source>Expert load</source>
        <translation>专家负载</translation>
    </message>
    <message>
        <source>All-to-all measurement</source>
        <translation>all-to-all 测量</translation>
    </message>
    <message>
        <source>Size per rank</source>
        <translation>每 rank 消息大小</translation>
    </message>
    <message>
        <source>Samples</source>
        <translation>样本数</translation>
    </message>
    <message>
        <source>Repeats</source>
        <translation>重复次数</translation>
    </message>
    <message>
        <source>Median (µs)</source>
        <translation>中位数 (µs)</translation>
    </message>
    <message>
        <source>P99 (µs)</source>
        <translation>P99 (µs)</translation>
    </message>
    <message>
        <source>Bandwidth (GB/s)</source>
        <translation>带宽 (GB/s)</translation>
    </message>
    <message>
        <source>CV across repeats (%)</source>
        <translation>重复间变异系数 (%)</translation>
    </message>
    <message>
        <source>There is no run named “%1” in this project (it was renamed or deleted).</source>
        <translation>本项目中没有名为“%1”的运行（已被重命名或删除）。</translation>
    </message>
    <message>
        <source>Reading the run&apos;s measurements…</source>
        <translation>正在读取该运行的测量数据…</translation>
    </message>
    <message>
        <source> (incomplete: comparisons using it are refused)</source>
        <translation>（不完整：使用它的比较会被拒绝）</translation>
    </message>
    <message numerus="yes">
        <source>%n communication sample(s)</source>
        <translation>
            <numerusform>%n 个通信样本</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>metrics at %n step(s)</source>
        <translation>
            <numerusform>%n 步的指标</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n expert-load block(s)</source>
        <translation>
            <numerusform>%n 个专家负载数据块</numerusform>
        </translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Config record</source>
        <translation>配置记录</translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation>集群</translation>
    </message>
    <message>
        <source>none named</source>
        <translation>未指定</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Holds</source>
        <translation>包含</translation>
    </message>
    <message>
        <source>no measurements</source>
        <translation>无测量数据</translation>
    </message>
    <message>
        <source>Imported</source>
        <translation>导入时间</translation>
    </message>
    <message>
        <source>Data last written</source>
        <translation>数据最后写入</translation>
    </message>
    <message numerus="yes">
        <source>%1 (%2, %n row(s))</source>
        <translation>
            <numerusform>%1（%2，%n 行）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>… and %n more file(s)</source>
        <translation>
            <numerusform>… 另有 %n 个文件</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>added later: %1</source>
        <translation>后来添加：%1</translation>
    </message>
    <message numerus="yes">
        <source>  … %n more (in the tooltip)</source>
        <translation>
            <numerusform>  … 另有 %n 个（见提示）</numerusform>
        </translation>
    </message>
    <message>
        <source>Source files: not recorded</source>
        <translation>来源文件：未记录</translation>
    </message>
    <message>
        <source>Source files:</source>
        <translation>来源文件：</translation>
    </message>
    <message>
        <source>Stage %1 · %2</source>
        <translation>阶段 %1 · %2</translation>
    </message>
    <message>
        <source>this run changed since the verdict: re-evaluate</source>
        <translation>判定之后该运行有变化：请重新评估</translation>
    </message>
    <message>
        <source>other runs changed since the verdict: re-evaluate</source>
        <translation>判定之后其他运行有变化：请重新评估</translation>
    </message>
    <message>
        <source>the verdict is current</source>
        <translation>判定为最新</translation>
    </message>
    <message>
        <source>%1 — %2 %3 (verdict of %4); %5</source>
        <translation>%1 — %2 %3（%4 的判定）；%5</translation>
    </message>
    <message>
        <source>%1 — would take it now, but its verdict (%2) did not read it: re-evaluate</source>
        <translation>%1 — 现在会使用它，但其判定（%2）未读取它：请重新评估</translation>
    </message>
    <message>
        <source>%1 — takes it; not evaluated yet</source>
        <translation>%1 — 使用它；尚未评估</translation>
    </message>
    <message>
        <source>Used by</source>
        <translation>被以下阶段使用</translation>
    </message>
    <message>
        <source>No stage uses this run.</source>
        <translation>没有阶段使用此运行。</translation>
    </message>
    <message>
        <source>The measurements could not be read: %1</source>
        <translation>无法读取测量数据：%1</translation>
    </message>
    <message>
        <source>The run is no longer in the project.</source>
        <translation>该运行已不在项目中。</translation>
    </message>
    <message>
        <source>Not everything could be shown: %1</source>
        <translation>部分内容无法显示：%1</translation>
    </message>
    <message>
        <source>Loss (training and validation)</source>
        <translation>损失（训练与验证）</translation>
    </message>
    <message numerus="yes">
        <source>%n expert(s)</source>
        <translation>
            <numerusform>%n 个专家</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n layer(s)</source>
        <translation>
            <numerusform>%n 层</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n step(s) with expert load</source>
        <translation>
            <numerusform>%n 步有专家负载</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Over the last %n step(s) the busiest expert carries up to %1× the layer&apos;s mean (mean over layers and steps %2×); the limit is %3×.</source>
        <translation>
            <numerusform>在最后 %n 步中，最忙的专家最多承担该层均值的 %1×（各层各步平均 %2×）；上限为 %3×。</numerusform>
        </translation>
    </message>
    <message>
        <source>Worst layer: %1, above the limit in %2 % of those steps.</source>
        <translation>最差的层：%1，在这些步中有 %2 % 超过上限。</translation>
    </message>
    <message>
        <source>This run holds no measurements to draw.</source>
        <translation>此运行没有可绘制的测量数据。</translation>
    </message>
    <message>
        <source>%1 over steps · %2</source>
        <translation>%1 随步数变化 · %2</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步</translation>
    </message>
    <message numerus="yes">
        <source>step anatomy of %n profiled step(s)</source>
        <translation>
            <numerusform>%n 个已剖析步的步骤剖析</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>moewb::gui::RunsView</name>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Config record</source>
        <translation>配置记录</translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation>集群</translation>
    </message>
    <message>
        <source>Comm. samples</source>
        <translation>通信样本</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>步数</translation>
    </message>
    <message>
        <source>Expert-load blocks</source>
        <translation>专家负载块</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <source>Runs (%1)</source>
        <translation>运行（%1）</translation>
    </message>
    <message>
        <source>Compare selected</source>
        <translation>比较所选</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>Ctrl+click or Shift+click selects several; right-click for rename, tag, move, delete; right-click a column header to choose the columns.</source>
        <translation>Ctrl+单击或 Shift+单击可多选；右键单击可重命名、加标签、移动、删除；右键单击列标题可选择显示的列。</translation>
    </message>
    <message>
        <source>Final loss</source>
        <translation>最终损失</translation>
    </message>
    <message>
        <source>Val loss</source>
        <translation>验证损失</translation>
    </message>
    <message>
        <source>Tokens/s/GPU</source>
        <translation>token/秒/GPU</translation>
    </message>
    <message>
        <source>lm_loss at the last step that logged it</source>
        <translation>最后一个记录了 lm_loss 的步上的值</translation>
    </message>
    <message>
        <source>val_loss at the last step that logged it</source>
        <translation>最后一个记录了 val_loss 的步上的值</translation>
    </message>
    <message>
        <source>Steady tokens/s per GPU, warm-up steps excluded (as stage 2 counts it)</source>
        <translation>稳定阶段的单 GPU token/秒，不含预热步（与阶段 2 的算法相同）</translation>
    </message>
    <message>
        <source>Token drop rate at the last step that logged it</source>
        <translation>最后一个记录了丢弃率的步上的 token 丢弃率</translation>
    </message>
    <message>
        <source>Drop rate</source>
        <translation>丢弃率</translation>
    </message>
</context>
<context>
    <name>moewb::gui::StageFrame</name>
    <message>
        <source>Stage %1 · %2 — %3 %4</source>
        <translation>阶段 %1 · %2 — %3 %4</translation>
    </message>
</context>
<context>
    <name>moewb::gui::StartScreen</name>
    <message>
        <source>MoE Workbench</source>
        <translation>MoE Workbench</translation>
    </message>
    <message>
        <source>Does this Mixture-of-Experts configuration pay on your cluster? The workbench walks you through four stages — communication baseline, dense control, expert load and loss, transfer to the target cluster — and stops you where the evidence says stop.</source>
        <translation>这个混合专家（MoE）配置在你的集群上划算吗？工作台带你走完四个阶段——通信基线、稠密对照、专家负载与损失、迁移到目标集群——并在证据表明应当停止时让你停下。</translation>
    </message>
    <message>
        <source>New evaluation…</source>
        <translation>新建评估…</translation>
    </message>
    <message>
        <source>Create a project file (*.moewb) for a new evaluation (Ctrl+N)</source>
        <translation>为新的评估创建项目文件（*.moewb）（Ctrl+N）</translation>
    </message>
    <message>
        <source>Open…</source>
        <translation>打开…</translation>
    </message>
    <message>
        <source>Open an existing project file (Ctrl+O)</source>
        <translation>打开已有的项目文件（Ctrl+O）</translation>
    </message>
    <message>
        <source>Open the demo (synthetic data)</source>
        <translation>打开演示（合成数据）</translation>
    </message>
    <message>
        <source>A synthetic evaluation that fills every page, so you can click through the whole method in five minutes. Its data is made up and labelled DEMO everywhere.</source>
        <translation>一个填满所有页面的合成评估，五分钟即可点完整个方法。其数据均为编造，并在各处标注“演示”。</translation>
    </message>
    <message>
        <source>The demo is written to %1 the first time; your own projects are never touched.</source>
        <translation>演示项目首次打开时写入 %1；不会改动你自己的项目。</translation>
    </message>
    <message>
        <source>Recent projects</source>
        <translation>最近的项目</translation>
    </message>
    <message>
        <source>%1
    %2</source>
        <translation>%1
    %2</translation>
    </message>
    <message>
        <source>Double-click or press Enter to open %1</source>
        <translation>双击或按 Enter 打开 %1</translation>
    </message>
    <message>
        <source>%1 — missing
    %2</source>
        <translation>%1 — 文件缺失
    %2</translation>
    </message>
    <message>
        <source>%1 no longer exists (moved or deleted).</source>
        <translation>%1 已不存在（已移动或删除）。</translation>
    </message>
    <message>
        <source>No recent projects yet: start a new evaluation or open the demo.</source>
        <translation>还没有最近的项目：新建一个评估，或打开演示。</translation>
    </message>
    <message>
        <source>Double-click a project to open it.</source>
        <translation>双击项目即可打开。</translation>
    </message>
    <message>
        <source>Writing the demo project…</source>
        <translation>正在写入演示项目…</translation>
    </message>
    <message>
        <source>Measure a reference evaluation on this computer</source>
        <translation>在本机上测量参考评估</translation>
    </message>
    <message>
        <source>Tiny real trainings and real all-to-all measurements on this computer, run through all four stages: every number measured, the method real, the scale tiny.</source>
        <translation>在本机上进行微型的真实训练和真实的 all-to-all 测量，并走完全部四个阶段：每个数字都是实测的，方法是真实的，规模很小。</translation>
    </message>
</context>
<context>
    <name>moewb::gui::StepAnatomyView</name>
    <message>
        <source>Step anatomy</source>
        <translation>步骤剖析</translation>
    </message>
    <message>
        <source>&amp;Step:</source>
        <translation>步(&amp;S)：</translation>
    </message>
    <message>
        <source>The profiled step the bars show; at first the one where the other ranks wait longest for the busiest.</source>
        <translation>柱状图显示的已剖析步；初始为其他 rank 等待最忙 rank 最久的一步。</translation>
    </message>
    <message>
        <source>Where each rank&apos;s time goes in the profiled steps, from the run&apos;s PyTorch profiler traces. The busiest rank (largest compute and communication time, waiting left out) sets the pace: the others wait for it.</source>
        <translation>各 rank 在已剖析的各步中把时间花在哪里，来自该运行的 PyTorch profiler 追踪。最忙的 rank（计算与通信时间最长，不计等待）决定节奏：其他 rank 都在等它。</translation>
    </message>
    <message>
        <source>How often each rank was the busiest</source>
        <translation>各 rank 成为最忙者的次数</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>进程（rank）</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>Local rank</source>
        <translation>节点内序号</translation>
    </message>
    <message>
        <source>Times busiest</source>
        <translation>最忙次数</translation>
    </message>
    <message>
        <source>Share of the steps</source>
        <translation>占步数比例</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Size per rank</source>
        <translation>每 rank 消息大小</translation>
    </message>
    <message>
        <source>Calls</source>
        <translation>调用次数</translation>
    </message>
    <message>
        <source>Training bandwidth</source>
        <translation>训练中带宽</translation>
    </message>
    <message>
        <source>Stage 1 bandwidth</source>
        <translation>阶段 1 带宽</translation>
    </message>
    <message>
        <source>Training ÷ stage 1</source>
        <translation>训练 ÷ 阶段 1</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>说明</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>rank %1</translation>
    </message>
    <message>
        <source>rank %1 (node %2, local rank %3)</source>
        <translation>rank %1（节点 %2，节点内序号 %3）</translation>
    </message>
    <message>
        <source>Step %1</source>
        <translation>第 %1 步</translation>
    </message>
    <message>
        <source>Step %1 · others wait %2</source>
        <translation>第 %1 步 · 其他 rank 等待 %2</translation>
    </message>
    <message numerus="yes">
        <source>Over %n complete step(s) the busiest device is busy %1 of its step on average and the mean device %2: the others wait %3 per step for the busiest.</source>
        <translation>
            <numerusform>在 %n 个完整步中，最忙设备平均有 %1 的步时间在忙，平均设备为 %2：其他设备每步平均等待最忙设备 %3。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n step(s) left out: a traced rank did not record them.</source>
        <translation>
            <numerusform>%n 步未计入：有被追踪的 rank 没有记录它们。</numerusform>
        </translation>
    </message>
    <message>
        <source>No step was recorded by every traced rank: no busiest rank to name.</source>
        <translation>没有一步被所有被追踪的 rank 记录：无法指出最忙的 rank。</translation>
    </message>
    <message>
        <source>Step %1: not every traced rank recorded it, so no busiest rank is named.</source>
        <translation>第 %1 步：并非所有被追踪的 rank 都记录了它，因此不指出最忙的 rank。</translation>
    </message>
    <message>
        <source>Step %1: busiest %2 at %3 of its step; mean device %4; the others wait %5 for it in this step.</source>
        <translation>第 %1 步：最忙的是 %2，忙碌占其步时间的 %3；平均设备为 %4；其他设备在这一步中等待它 %5。</translation>
    </message>
    <message>
        <source>The training&apos;s all-to-all against stage 1&apos;s measured baseline (the run names no cluster)</source>
        <translation>训练中的 all-to-all 与阶段 1 实测基线对比（该运行未指明集群）</translation>
    </message>
    <message>
        <source>The training&apos;s all-to-all against stage 1&apos;s measured baseline on %1</source>
        <translation>训练中的 all-to-all 与阶段 1 在 %1 上实测的基线对比</translation>
    </message>
    <message>
        <source>all-to-all</source>
        <translation>all-to-all</translation>
    </message>
    <message>
        <source>dispatch</source>
        <translation>分发（dispatch）</translation>
    </message>
    <message>
        <source>combine</source>
        <translation>合并（combine）</translation>
    </message>
    <message>
        <source>send/receive</source>
        <translation>发送/接收</translation>
    </message>
    <message>
        <source>Measured by %1</source>
        <translation>由 %1 测得</translation>
    </message>
    <message>
        <source>the traces hold no all-to-all call.</source>
        <translation>追踪中没有 all-to-all 调用。</translation>
    </message>
    <message>
        <source>measured by %1</source>
        <translation>由 %1 测得</translation>
    </message>
    <message>
        <source>some calls&apos; split sizes were cut in the trace</source>
        <translation>追踪中部分调用的切分大小被截断</translation>
    </message>
    <message>
        <source>The step as a timeline, ranks as rows</source>
        <translation>该步的时间线，每行一个 rank</translation>
    </message>
    <message>
        <source>This run&apos;s traces were imported before the workbench kept step timelines: import the traces again, into a new run, to see each step as a timeline.</source>
        <translation>此运行的 trace 是在工作台保存步时间线之前导入的：请把这些 trace 重新导入为一个新运行，即可按时间线查看每一步。</translation>
    </message>
    <message>
        <source>The timeline keeps the first %1 profiled steps (%2 to %3): step %4 is not among them.</source>
        <translation>时间线只保留前 %1 个剖析步（%2 到 %3）：第 %4 步不在其中。</translation>
    </message>
    <message>
        <source>rank %1 (%2 left out)</source>
        <translation>rank %1（略去 %2 个）</translation>
    </message>
    <message>
        <source>Cut at %1 intervals a rank, the earliest kept: %2.</source>
        <translation>每个 rank 最多保留 %1 个区间（保留最早的）：%2。</translation>
    </message>
    <message>
        <source>Only the first %1 profiled steps are kept as timelines.</source>
        <translation>只有前 %1 个剖析步保存了时间线。</translation>
    </message>
</context>
<context>
    <name>moewb::gui::StepTimelineView</name>
    <message>
        <source>compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>all-to-all</source>
        <translation>all-to-all</translation>
    </message>
    <message>
        <source>dispatch</source>
        <translation>分发（dispatch）</translation>
    </message>
    <message>
        <source>combine</source>
        <translation>合并（combine）</translation>
    </message>
    <message>
        <source>other communication</source>
        <translation>其他通信</translation>
    </message>
    <message>
        <source>waiting</source>
        <translation>等待</translation>
    </message>
    <message>
        <source>memcpy/memset</source>
        <translation>memcpy/memset（内存拷贝）</translation>
    </message>
    <message>
        <source>busiest rank</source>
        <translation>最忙的 rank</translation>
    </message>
    <message>
        <source>Reset zoom</source>
        <translation>重置缩放</translation>
    </message>
    <message>
        <source>Show the whole step again (or double-click the timeline)</source>
        <translation>重新显示整个步（或双击时间线）</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>进程（rank）</translation>
    </message>
    <message>
        <source>No rank&apos;s timeline is stored for this step.</source>
        <translation>此步没有保存任何 rank 的时间线。</translation>
    </message>
    <message>
        <source>Times on the ranks&apos; common clock (aligned on the ends of the collectives they share), from the step&apos;s start; each rank&apos;s own step shaded. Wheel after a click (or Ctrl+wheel) zooms, drag pans, double-click resets.</source>
        <translation>时间为各 rank 的共同时钟（按它们共享的集合通信的结束时刻对齐），从该步开始算起；每个 rank 自己的步以底色标出。点击后滚轮（或 Ctrl+滚轮）缩放，拖动平移，双击复原。</translation>
    </message>
    <message>
        <source>Time from the step&apos;s start</source>
        <translation>从步开始起的时间</translation>
    </message>
    <message>
        <source>%1 · busiest</source>
        <translation>%1 · 最忙</translation>
    </message>
    <message>
        <source>%1, from %2 to %3</source>
        <translation>%1，从 %2 到 %3</translation>
    </message>
    <message>
        <source>compute (merged kernels)</source>
        <translation>计算（合并后的 kernel）</translation>
    </message>
    <message>
        <source>memcpy/memset (merged)</source>
        <translation>memcpy/memset（已合并）</translation>
    </message>
    <message>
        <source>%1 waiting for the group&apos;s latest rank</source>
        <translation>%1 等待组内最晚到达的 rank</translation>
    </message>
    <message>
        <source>Kernel: %1</source>
        <translation>Kernel：%1</translation>
    </message>
    <message>
        <source>Process group: %1</source>
        <translation>进程组：%1</translation>
    </message>
    <message>
        <source>Bytes: %1</source>
        <translation>字节数：%1</translation>
    </message>
    <message>
        <source>Rank %1 · %2</source>
        <translation>Rank %1 · %2</translation>
    </message>
</context>
<context>
    <name>moewb::gui::WarningsBar</name>
    <message>
        <source>✔ No warnings from the misjudgment checks</source>
        <translation>✔ 误判检查没有发出警告</translation>
    </message>
    <message>
        <source>The six checks of docs/method.md found nothing to warn about.</source>
        <translation>docs/method.md 中的六项检查均未发现需要警告的问题。</translation>
    </message>
    <message numerus="yes">
        <source>⚠ %n warning(s): %1  ▸</source>
        <translation>
            <numerusform>⚠ %n 条警告：%1  ▸</numerusform>
        </translation>
    </message>
    <message>
        <source>Click for each warning&apos;s explanation and fix.

%1: %2</source>
        <translation>点击查看每条警告的解释与修正方法。

%1：%2</translation>
    </message>
</context>
<context>
    <name>moewb::gui::WarningsDialog</name>
    <message>
        <source>Warnings from the misjudgment checks</source>
        <translation>误判检查的警告</translation>
    </message>
    <message>
        <source>&lt;p&gt;✔ None of the six misjudgment checks fired on this project.&lt;/p&gt;</source>
        <translation>&lt;p&gt;✔ 六项误判检查在此项目上均未触发。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;h3&gt;⚠ %1 &lt;small&gt;(check %2)&lt;/small&gt;&lt;/h3&gt;</source>
        <translation>&lt;h3&gt;⚠ %1 &lt;small&gt;（检查 %2）&lt;/small&gt;&lt;/h3&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Found:&lt;/b&gt; %1&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;发现：&lt;/b&gt;%1&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;What to do:&lt;/b&gt; %1&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;处理方法：&lt;/b&gt;%1&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;small&gt;The checks are described in docs/method.md, &quot;The six misjudgment checks&quot;.&lt;/small&gt;&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;small&gt;这些检查的说明见 docs/method.md 的“The six misjudgment checks”一节。&lt;/small&gt;&lt;/p&gt;</translation>
    </message>
    <message numerus="yes">
        <source>▾ Hide the %n finding(s)</source>
        <translation>
            <numerusform>▾ 收起 %n 条发现</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>▸ Show the %n finding(s)</source>
        <translation>
            <numerusform>▸ 展开 %n 条发现</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>moewb::plots::PlotToolBar</name>
    <message>
        <source>Log y</source>
        <translation>对数 y</translation>
    </message>
    <message>
        <source>Logarithmic y axis: a curve far below the others no longer sits flat at 0</source>
        <translation>对数 y 轴：远低于其他曲线的那条不再贴在 0 上</translation>
    </message>
    <message>
        <source>Back to the whole plot (or double-click it)</source>
        <translation>回到整张图（或双击图）</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
</context>
<context>
    <name>moewb::plots::PlotView</name>
    <message>
        <source>run %1</source>
        <translation>运行 %1</translation>
    </message>
    <message>
        <source>%1 %2, %3 %4
%5 %6</source>
        <translation>%1 %2，%3 %4
%5 %6</translation>
    </message>
    <message>
        <source>no data</source>
        <translation>无数据</translation>
    </message>
    <message>
        <source>colour</source>
        <translation>颜色</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>Could not write the PNG file %1.</source>
        <translation>无法写入 PNG 文件 %1。</translation>
    </message>
    <message>
        <source>Could not write the PDF file %1.</source>
        <translation>无法写入 PDF 文件 %1。</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Export PNG…</source>
        <translation>导出 PNG…</translation>
    </message>
    <message>
        <source>Export PDF…</source>
        <translation>导出 PDF…</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <source>Reset view</source>
        <translation>重置视图</translation>
    </message>
    <message>
        <source>PNG image (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <source>PDF document (*.pdf)</source>
        <translation>PDF 文档 (*.pdf)</translation>
    </message>
    <message>
        <source>CSV table (*.csv)</source>
        <translation>CSV 表格 (*.csv)</translation>
    </message>
    <message>
        <source>Export plot</source>
        <translation>导出图表</translation>
    </message>
    <message>
        <source>Copy image</source>
        <translation>复制图像</translation>
    </message>
    <message>
        <source>Logarithmic y axis</source>
        <translation>对数 y 轴</translation>
    </message>
    <message>
        <source>%1 %2, %3 %4
max %5, mean %6 %7 (%8 cells pooled)</source>
        <translation>%1 %2，%3 %4
最大 %5，平均 %6 %7（%8 个单元格合并）</translation>
    </message>
</context>
<context>
    <name>moewb::plots::Plots</name>
    <message>
        <source>No data</source>
        <translation>无数据</translation>
    </message>
</context>
</TS>
