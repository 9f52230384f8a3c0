<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Report</name>
    <message>
        <source>no cluster</source>
        <translation>无集群</translation>
    </message>
    <message>
        <source>%1 (%2, record %3, %4)</source>
        <translation>%1（%2，配置记录 %3，%4）</translation>
    </message>
    <message>
        <source>Stage 1 — communication baseline</source>
        <translation>阶段 1：通信基线</translation>
    </message>
    <message>
        <source>Per message size: effective all-to-all bandwidth, median and P99 time, and the variation across repeats. Stops when the CV across repeats or P99/median exceeds the team&apos;s threshold.</source>
        <translation>按消息大小给出 all-to-all 有效带宽、耗时的中位数与 P99，以及多次重复之间的波动。重复间的变异系数（CV）或 P99/中位数超过团队设定的阈值时停止。</translation>
    </message>
    <message>
        <source>No data: the project holds no run with communication samples (import a moe-probe or nccl-tests result).</source>
        <translation>无数据：项目中没有含通信样本的运行（请导入 moe-probe 或 nccl-tests 的结果）。</translation>
    </message>
    <message numerus="yes">
        <source>%n node(s)</source>
        <translation>
            <numerusform>%n 个节点</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 ranks</source>
        <translation>%1 个 rank</translation>
    </message>
    <message>
        <source>Run %1</source>
        <translation>运行 %1</translation>
    </message>
    <message>
        <source>Run %1 (%2)</source>
        <translation>运行 %1（%2）</translation>
    </message>
    <message>
        <source>Size per rank</source>
        <translation>每 rank 大小</translation>
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
        <source>Median</source>
        <translation>中位数</translation>
    </message>
    <message>
        <source>P99</source>
        <translation>P99</translation>
    </message>
    <message>
        <source>Eff. bandwidth</source>
        <translation>有效带宽</translation>
    </message>
    <message>
        <source>Alg. bandwidth</source>
        <translation>算法带宽</translation>
    </message>
    <message>
        <source>CV repeats</source>
        <translation>重复间 CV</translation>
    </message>
    <message>
        <source>P99/median</source>
        <translation>P99/中位数</translation>
    </message>
    <message>
        <source>Node-count comparison</source>
        <translation>不同节点数对比</translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation>节点数</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Bandwidth</source>
        <translation>带宽</translation>
    </message>
    <message>
        <source> (algbw)</source>
        <translation>（算法带宽）</translation>
    </message>
    <message>
        <source>Suggested thresholds (from these runs; never applied)</source>
        <translation>建议阈值（由这些运行得出；不会自动应用）</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>Suggested</source>
        <translation>建议值</translation>
    </message>
    <message>
        <source>Basis</source>
        <translation>依据</translation>
    </message>
    <message>
        <source>Stage 2 — dense control</source>
        <translation>阶段 2：稠密对照</translation>
    </message>
    <message>
        <source>The MoE model against a dense model of similar activated size, like for like. Stops when the MoE is slower and its validation loss is not better.</source>
        <translation>将 MoE 模型与激活参数量相近的稠密模型同口径对比。MoE 更慢且验证损失没有改善时停止。</translation>
    </message>
    <message>
        <source>MoE against dense, at equal tokens</source>
        <translation>MoE 与稠密模型对比（相同 token 数）</translation>
    </message>
    <message>
        <source>MoE run</source>
        <translation>MoE 运行</translation>
    </message>
    <message>
        <source>Dense run</source>
        <translation>稠密运行</translation>
    </message>
    <message>
        <source>Tokens/s/GPU MoE</source>
        <translation>MoE tokens/s/GPU</translation>
    </message>
    <message>
        <source>Tokens/s/GPU dense</source>
        <translation>稠密 tokens/s/GPU</translation>
    </message>
    <message>
        <source>Compared at</source>
        <translation>对比点</translation>
    </message>
    <message>
        <source>Train loss MoE / dense</source>
        <translation>训练损失 MoE / 稠密</translation>
    </message>
    <message>
        <source>Val loss MoE / dense</source>
        <translation>验证损失 MoE / 稠密</translation>
    </message>
    <message>
        <source>Activated params diff</source>
        <translation>激活参数量差异</translation>
    </message>
    <message>
        <source>Stops</source>
        <translation>触发停止</translation>
    </message>
    <message>
        <source>%1 tokens</source>
        <translation>%1 token</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>%1 vs %2 not like for like: %3</source>
        <translation>%1 与 %2 不同口径：%3</translation>
    </message>
    <message>
        <source>Stage 3 — expert load and loss</source>
        <translation>阶段 3：专家负载与损失</translation>
    </message>
    <message>
        <source>Load ratio max/mean per layer and step, token drop rate and busiest-device share. Stops when a layer&apos;s load ratio stays above the limit or the drop rate is above its limit.</source>
        <translation>按层、按步统计负载比（max/mean）、token 丢弃率和最忙设备耗时占比。某层负载比持续高于上限，或丢弃率超过上限时停止。</translation>
    </message>
    <message>
        <source>Per run, over the gate&apos;s window</source>
        <translation>按运行统计（判定窗口内）</translation>
    </message>
    <message>
        <source>Experts × layers</source>
        <translation>专家数 × 层数</translation>
    </message>
    <message>
        <source>Window steps</source>
        <translation>窗口步数</translation>
    </message>
    <message>
        <source>Worst layer</source>
        <translation>最差层</translation>
    </message>
    <message>
        <source>Steps above limit</source>
        <translation>超限步占比</translation>
    </message>
    <message>
        <source>Max / mean ratio</source>
        <translation>最大 / 平均负载比</translation>
    </message>
    <message>
        <source>Drop rate</source>
        <translation>丢弃率</translation>
    </message>
    <message>
        <source>Busiest device</source>
        <translation>最忙设备占比</translation>
    </message>
    <message>
        <source>Window loss</source>
        <translation>窗口内损失</translation>
    </message>
    <message>
        <source> (est.)</source>
        <translation>（估算）</translation>
    </message>
    <message>
        <source>Stage 2 is stale: %1</source>
        <translation>阶段 2 已过期：%1</translation>
    </message>
    <message>
        <source>Stage 4 — transfer boundary</source>
        <translation>阶段 4：迁移边界</translation>
    </message>
    <message>
        <source>The target cluster&apos;s stage 1 baseline against the source&apos;s, size by size. Stops when a size differs by more than the threshold: conclusions are then reference only.</source>
        <translation>逐个消息大小对比目标集群与源集群的阶段 1 基线。任一大小的差异超过阈值时停止：此时结论只能作为参考。</translation>
    </message>
    <message>
        <source>No data: %1</source>
        <translation>无数据：%1</translation>
    </message>
    <message>
        <source>Source %1 against target %2</source>
        <translation>源 %1 对比目标 %2</translation>
    </message>
    <message>
        <source>Source bandwidth</source>
        <translation>源集群带宽</translation>
    </message>
    <message>
        <source>Target bandwidth</source>
        <translation>目标集群带宽</translation>
    </message>
    <message>
        <source>Difference</source>
        <translation>差异</translation>
    </message>
    <message>
        <source>Measured on one cluster only: %1</source>
        <translation>以下消息大小只在一个集群上测过：%1</translation>
    </message>
    <message>
        <source>model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>experts</source>
        <translation>专家数</translation>
    </message>
    <message>
        <source>top-k</source>
        <translation>Top-K</translation>
    </message>
    <message>
        <source>capacity factor</source>
        <translation>容量因子</translation>
    </message>
    <message>
        <source>overflow</source>
        <translation>溢出策略</translation>
    </message>
    <message>
        <source>EP</source>
        <translation>EP</translation>
    </message>
    <message>
        <source>nodes</source>
        <translation>节点数</translation>
    </message>
    <message>
        <source>accelerator</source>
        <translation>加速卡</translation>
    </message>
    <message>
        <source>network</source>
        <translation>网络</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>Reading the project</source>
        <translation>正在读取项目</translation>
    </message>
    <message>
        <source>Evaluating stage %1</source>
        <translation>正在评估阶段 %1</translation>
    </message>
    <message>
        <source>Running the misjudgment checks</source>
        <translation>正在运行误判检查</translation>
    </message>
    <message>
        <source>Project read</source>
        <translation>项目读取完毕</translation>
    </message>
    <message>
        <source>Config records</source>
        <translation>配置记录</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Misjudgment warnings</source>
        <translation>误判警告</translation>
    </message>
    <message>
        <source>Thresholds and their source</source>
        <translation>阈值及其来源</translation>
    </message>
    <message>
        <source>Overrides</source>
        <translation>豁免记录</translation>
    </message>
    <message>
        <source>Applicability statement</source>
        <translation>适用性声明</translation>
    </message>
    <message>
        <source>Assessment sheet</source>
        <translation>评估表</translation>
    </message>
    <message>
        <source>Cost estimate</source>
        <translation>成本估算</translation>
    </message>
    <message>
        <source>Appendix: run environments</source>
        <translation>附录：运行环境</translation>
    </message>
    <message>
        <source>Contents</source>
        <translation>目录</translation>
    </message>
    <message>
        <source>Page %1 of %2</source>
        <translation>第 %1 页，共 %2 页</translation>
    </message>
    <message>
        <source>Page %1</source>
        <translation>第 %1 页</translation>
    </message>
    <message>
        <source>(no rows)</source>
        <translation>（无数据行）</translation>
    </message>
    <message>
        <source>Plot &quot;%1&quot;: no data to draw.</source>
        <translation>图表“%1”：没有可绘制的数据。</translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation>结论</translation>
    </message>
    <message>
        <source>Stop reasons:</source>
        <translation>停止原因：</translation>
    </message>
    <message>
        <source>Reasons:</source>
        <translation>原因：</translation>
    </message>
    <message>
        <source>What to do: %1</source>
        <translation>下一步：%1</translation>
    </message>
    <message>
        <source>Note: %1</source>
        <translation>注：%1</translation>
    </message>
    <message>
        <source>Thresholds this verdict compared against</source>
        <translation>本结论所对照的阈值</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <source> (built-in default)</source>
        <translation>（内置默认值）</translation>
    </message>
    <message>
        <source>Recorded verdict in the project: %1, decided %2</source>
        <translation>项目中记录的结论：%1，判定时间 %2</translation>
    </message>
    <message>
        <source>No verdict recorded in the project for this stage.</source>
        <translation>项目中尚未记录本阶段的结论。</translation>
    </message>
    <message>
        <source>Overrides of this stage:</source>
        <translation>本阶段的豁免：</translation>
    </message>
    <message>
        <source>&quot;%1&quot; — %2, %3</source>
        <translation>“%1”——%2，%3</translation>
    </message>
    <message>
        <source>author not given</source>
        <translation>未注明作者</translation>
    </message>
    <message>
        <source>This is the demo project: every measurement in it is synthetic.</source>
        <translation>这是演示项目：其中所有测量数据均为合成数据。</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Key fields</source>
        <translation>关键字段</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <source>complete</source>
        <translation>完整</translation>
    </message>
    <message>
        <source>draft</source>
        <translation>草稿</translation>
    </message>
    <message>
        <source>The project holds no config record.</source>
        <translation>项目中没有配置记录。</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Record</source>
        <translation>配置记录</translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation>集群</translation>
    </message>
    <message>
        <source>Comm samples</source>
        <translation>通信样本</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>步数</translation>
    </message>
    <message>
        <source>Load blocks</source>
        <translation>负载块</translation>
    </message>
    <message>
        <source>Imported</source>
        <translation>导入时间</translation>
    </message>
    <message>
        <source>The project holds no run.</source>
        <translation>项目中没有运行。</translation>
    </message>
    <message>
        <source>Inputs</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>Results</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Plots</source>
        <translation>图表</translation>
    </message>
    <message>
        <source>Conditions under which the conclusions hold</source>
        <translation>结论成立的条件</translation>
    </message>
    <message>
        <source>None of the six misjudgment checks fired on this project.</source>
        <translation>本项目未触发六项误判检查中的任何一项。</translation>
    </message>
    <message>
        <source>%1. %2</source>
        <translation>误判 %1：%2</translation>
    </message>
    <message>
        <source>Fix: %1</source>
        <translation>纠正方法：%1</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>Updated</source>
        <translation>更新时间</translation>
    </message>
    <message>
        <source>No stop was overridden.</source>
        <translation>没有豁免任何停止。</translation>
    </message>
    <message>
        <source>Stage</source>
        <translation>阶段</translation>
    </message>
    <message>
        <source>Justification</source>
        <translation>理由</translation>
    </message>
    <message>
        <source>Author</source>
        <translation>作者</translation>
    </message>
    <message>
        <source>Date</source>
        <translation>日期</translation>
    </message>
    <message>
        <source>No applicability statement: stage 4 has no result (see its section).</source>
        <translation>无适用性声明：阶段 4 没有结果（见该阶段一节）。</translation>
    </message>
    <message>
        <source>Conclusions drawn on the source cluster hold under these conditions:</source>
        <translation>在源集群上得出的结论，在以下条件下成立：</translation>
    </message>
    <message>
        <source> by %1</source>
        <translation>由 %1 </translation>
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
        <source>Reading the result: %1</source>
        <translation>结果解读：%1</translation>
    </message>
    <message>
        <source>Notes: %1</source>
        <translation>备注：%1</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Evidence: %1</source>
        <translation>证据：%1</translation>
    </message>
    <message>
        <source>none linked</source>
        <translation>未关联</translation>
    </message>
    <message>
        <source>Category</source>
        <translation>类别</translation>
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
        <source>Notes</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>not estimated</source>
        <translation>未估算</translation>
    </message>
    <message>
        <source>Source file: %1</source>
        <translation>源文件：%1</translation>
    </message>
    <message>
        <source>not recorded</source>
        <translation>未记录</translation>
    </message>
    <message>
        <source>Evaluation report: %1</source>
        <translation>评估报告：%1</translation>
    </message>
    <message>
        <source>%1 — MoE Workbench evaluation report, %2</source>
        <translation>%1 — MoE Workbench 评估报告，%2</translation>
    </message>
    <message numerus="yes">
        <source>Laid out %n page(s)</source>
        <translation>
            <numerusform>已排版 %n 页</numerusform>
        </translation>
    </message>
    <message>
        <source>cannot be written: %1</source>
        <translation>无法写入：%1</translation>
    </message>
    <message>
        <source>cannot start the PDF</source>
        <translation>无法开始写入 PDF</translation>
    </message>
    <message numerus="yes">
        <source>Written %n page(s)</source>
        <translation>
            <numerusform>已写入 %n 页</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>What a rebalanced placement would give: the busiest GPU&apos;s share of the routed tokens, predicted from the measured load over all steps, today (contiguous placement) and after DeepSeek EPLB&apos;s rebalancing with %n redundant slot(s) per GPU</source>
        <translation>
            <numerusform>重新平衡专家放置能带来什么：最忙 GPU 在路由 token 中所占的份额，根据全部步数的实测负载预测，分别为当前（连续放置）和 DeepSeek EPLB 重新平衡之后（每 GPU %n 个冗余槽位）</numerusform>
        </translation>
    </message>
    <message>
        <source>GPUs (EP)</source>
        <translation>GPU 数（EP）</translation>
    </message>
    <message>
        <source>Worst layer today</source>
        <translation>最差层当前</translation>
    </message>
    <message>
        <source>Worst layer rebalanced</source>
        <translation>最差层重新平衡后</translation>
    </message>
    <message>
        <source>Mean today</source>
        <translation>平均当前</translation>
    </message>
    <message>
        <source>Mean rebalanced</source>
        <translation>平均重新平衡后</translation>
    </message>
    <message>
        <source>Even</source>
        <translation>均匀</translation>
    </message>
    <message>
        <source>No rebalanced placement for %1: %2</source>
        <translation>%1 没有重新平衡的放置方案：%2</translation>
    </message>
    <message>
        <source>its config record has no parallelism.ep</source>
        <translation>其配置记录没有 parallelism.ep</translation>
    </message>
    <message>
        <source>Measured routing against uniform traffic: run %1 (%2) against run %3</source>
        <translation>实测路由与均匀流量对比：运行 %1（%2）对比运行 %3</translation>
    </message>
    <message>
        <source>Uniform median</source>
        <translation>均匀中位数</translation>
    </message>
    <message>
        <source>Measured-routing median</source>
        <translation>实测路由中位数</translation>
    </message>
    <message>
        <source>Ratio</source>
        <translation>比值</translation>
    </message>
    <message>
        <source>Bandwidth and median time per message size; one column per run</source>
        <translation>各消息大小的带宽与中位时间；每个运行一列</translation>
    </message>
    <message>
        <source>No data: the project holds no training run with a throughput metric; import the MoE and the dense training logs.</source>
        <translation>无数据：项目中没有带吞吐量指标的训练运行；请导入 MoE 和稠密模型的训练日志。</translation>
    </message>
    <message>
        <source>No data: the project holds no run with per-expert load; import a routing trace or an expert-load log.</source>
        <translation>无数据：项目中没有带逐专家负载的运行；请导入路由轨迹或专家负载日志。</translation>
    </message>
    <message>
        <source>not applicable</source>
        <translation>不适用</translation>
    </message>
    <message>
        <source>not logged</source>
        <translation>未记录</translation>
    </message>
    <message>
        <source>%1, estimated</source>
        <translation>%1，估算</translation>
    </message>
    <message>
        <source>Appendix: full tables</source>
        <translation>附录：完整表格</translation>
    </message>
    <message>
        <source>&quot;%1&quot; — %2, %3; given on older data</source>
        <translation>“%1” —— %2，%3；依据的是较旧的数据</translation>
    </message>
    <message>
        <source>the measured cluster</source>
        <translation>所测集群</translation>
    </message>
    <message>
        <source>cluster %1</source>
        <translation>集群 %1</translation>
    </message>
    <message>
        <source>Yes: the conclusions can be used for %1 within the applicability conditions below — all four stages passed.</source>
        <translation>可以：在下述适用条件内，结论可用于%1 —— 四个阶段全部通过。</translation>
    </message>
    <message>
        <source>Only on the source cluster: stages 1 to 3 hold there, but stage 4 stopped, so on the target cluster the conclusions are reference only. %1</source>
        <translation>仅限源集群：阶段 1 至 3 在源集群上成立，但阶段 4 停止，因此结论在目标集群上仅供参考。%1</translation>
    </message>
    <message>
        <source>Verdict: LOCKED — %1</source>
        <translation>判定：已锁定 —— %1</translation>
    </message>
    <message>
        <source>For reference only, the gate would say %1 on the current data.</source>
        <translation>仅供参考：按当前数据，门控会给出 %1。</translation>
    </message>
    <message>
        <source>MoE Workbench · evaluation report</source>
        <translation>MoE Workbench · 评估报告</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n node(s), %2 GPUs</source>
        <translation>
            <numerusform>%1：%n 个节点，%2 个 GPU</numerusform>
        </translation>
    </message>
    <message>
        <source>none recorded</source>
        <translation>未记录</translation>
    </message>
    <message>
        <source>Decision</source>
        <translation>结论</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>Budget: no cost estimate is recorded in the assessment sheet, so this decision covers the technical gates only.</source>
        <translation>预算：评估表中没有成本估算，因此此结论只涵盖技术门控。</translation>
    </message>
    <message>
        <source>Budget, from the cost estimate: %1.</source>
        <translation>预算（取自成本估算）：%1。</translation>
    </message>
    <message>
        <source>The four stage verdicts</source>
        <translation>四个阶段的判定</translation>
    </message>
    <message>
        <source>Why, in one line</source>
        <translation>一句话理由</translation>
    </message>
    <message>
        <source>New data since the saved verdict.</source>
        <translation>保存的判定之后有新数据。</translation>
    </message>
    <message>
        <source>Stage %1: %2</source>
        <translation>阶段 %1：%2</translation>
    </message>
    <message>
        <source>Open warnings</source>
        <translation>未解决的警告</translation>
    </message>
    <message>
        <source>Applicability</source>
        <translation>适用范围</translation>
    </message>
    <message>
        <source>No applicability statement: stage 4 has no result, so the conclusions hold only on the cluster they were measured on.</source>
        <translation>没有适用范围声明：阶段 4 没有结果，因此结论只在测量所用的集群上成立。</translation>
    </message>
    <message>
        <source>The full tables are in the appendix.</source>
        <translation>完整表格见附录。</translation>
    </message>
    <message>
        <source>No environment metadata.</source>
        <translation>无环境元数据。</translation>
    </message>
    <message>
        <source>Field</source>
        <translation>字段</translation>
    </message>
    <message>
        <source>Not yet: stage %1 stopped. %2 The conclusions cannot be used for %3 until it passes or its stop is overridden with a written justification.</source>
        <translation>尚不可以：阶段 %1 已停止。%2 在它通过或其停止被附书面理由豁免之前，结论不能用于%3。</translation>
    </message>
    <message>
        <source>Not yet: stage %1 is locked. %2 The conclusions cannot be used for %3 until every stage has passed.</source>
        <translation>尚不可以：阶段 %1 已锁定。%2 在每个阶段都通过之前，结论不能用于%3。</translation>
    </message>
    <message>
        <source>Not yet: stage %1 is not ready. %2 The conclusions cannot be used for %3 until it has what it needs and passes.</source>
        <translation>尚不可以：阶段 %1 尚未就绪。%2 在它具备所需数据并通过之前，结论不能用于%3。</translation>
    </message>
    <message>
        <source>Stage 4 has not passed, so these conditions are not yet confirmed; once it passes, conclusions drawn on the source cluster hold under them:</source>
        <translation>阶段 4 尚未通过，因此这些条件尚未得到确认；它通过后，在源集群上得出的结论在以下条件下成立：</translation>
    </message>
    <message>
        <source>The ten review dimensions, applied to the team&apos;s MoE training plan and this evaluation. Rated %1 of 10; last saved %2%3.</source>
        <translation>十个评审维度，用于团队的 MoE 训练方案和本次评估。已评级 %1/10 项；最后%3保存于 %2。</translation>
    </message>
    <message numerus="yes">
        <source>Only on the team&apos;s word: %n stage(s) stopped and went on by a written override. The measurements alone do not support using the conclusions for %1; read each override&apos;s justification below before relying on them.</source>
        <translation>
            <numerusform>仅凭团队的判断：%n 个阶段被判为停止，靠书面覆盖理由继续。仅凭测量结果，不足以把结论用于 %1；在依赖这些结论之前，请逐条阅读下方每项覆盖的理由。</numerusform>
        </translation>
    </message>
    <message>
        <source>From the project: nothing the workbench measures speaks to this — for the team to fill.</source>
        <translation>来自项目：工作台测量的内容都不涉及这一维度——由团队填写。</translation>
    </message>
    <message>
        <source>From the project:</source>
        <translation>来自项目：</translation>
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
        <source>The training&apos;s all-to-all against stage 1&apos;s measured baseline (the run names no cluster)</source>
        <translation>训练中的 all-to-all 与阶段 1 实测基线对比（该运行未指明集群）</translation>
    </message>
    <message>
        <source>The training&apos;s all-to-all against stage 1&apos;s measured baseline on %1</source>
        <translation>训练中的 all-to-all 与阶段 1 在 %1 上实测的基线对比</translation>
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
        <source>measured by %1</source>
        <translation>由 %1 测得</translation>
    </message>
    <message>
        <source>some calls&apos; split sizes were cut in the trace</source>
        <translation>追踪中部分调用的切分大小被截断</translation>
    </message>
    <message>
        <source>Step anatomy · %1</source>
        <translation>步骤剖析 · %1</translation>
    </message>
    <message>
        <source>The profiler traces of %1 hold no step that every traced rank recorded: no busiest rank and no imbalance bill.</source>
        <translation>%1 的 profiler 追踪中没有被所有被追踪 rank 都记录的步：没有最忙 rank，也没有不均衡代价。</translation>
    </message>
    <message numerus="yes">
        <source>Imbalance bill: over %n complete profiled step(s) the busiest device is busy %1 of its step on average and the mean device %2, so the others wait %3 per step for the busiest.</source>
        <translation>
            <numerusform>不均衡代价：在 %n 个完整的已剖析步中，最忙设备平均有 %1 的步时间在忙，平均设备为 %2，所以其他设备每步等待最忙设备 %3。</numerusform>
        </translation>
    </message>
    <message>
        <source>Largest in step %1: busiest %2 at %3 of its step; mean device %4; the others wait %5 for it in that step. The bars below show that step.</source>
        <translation>第 %1 步代价最大：最忙的是 %2，忙碌占其步时间的 %3；平均设备为 %4；其他设备在这一步中等待它 %5。下面的柱状图显示这一步。</translation>
    </message>
    <message>
        <source>The traces of %1 hold no all-to-all call to compare with stage 1.</source>
        <translation>%1 的追踪中没有可与阶段 1 对比的 all-to-all 调用。</translation>
    </message>
    <message>
        <source>Not yet: stage %1 has not been evaluated.%2 The conclusions cannot be used for %3 until it is evaluated and passes.</source>
        <translation>尚不可以:阶段 %1 尚未评估。%2 在其评估并通过之前,结论不能用于 %3。</translation>
    </message>
    <message>
        <source>Verdict: %1</source>
        <translation>结论:%1</translation>
    </message>
    <message>
        <source>On the current data the gate says %1 (not saved in the project: evaluate stage %2 to decide).</source>
        <translation>按当前数据,门控结论为 %1(未保存到项目:评估阶段 %2 以作出决定)。</translation>
    </message>
    <message>
        <source>Details: %1 more reasons</source>
        <translation>详情:另有 %1 条原因</translation>
    </message>
    <message>
        <source>Overridden (the justification is under Overrides). The stop: %1</source>
        <translation>已豁免(理由见“豁免”一节)。停止原因:%1</translation>
    </message>
    <message>
        <source>Not evaluated in the project; on the current data the gate says %1.</source>
        <translation>项目中尚未评估;按当前数据,门控结论为 %1。</translation>
    </message>
    <message numerus="yes">
        <source>%n more run(s) are not listed: the table names the runs the stages were decided on and the newest. The command moewb runs list names every run.</source>
        <translation>
            <numerusform>另有 %n 个运行未列出：本表列出各阶段据以判定的运行和最新的运行。命令 moewb runs list 会列出全部运行。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The environments of %n run(s): those the stages were decided on and the newest.</source>
        <translation>
            <numerusform>%n 个运行的环境：各阶段据以判定的运行和最新的运行。</numerusform>
        </translation>
    </message>
    <message>
        <source>At %1 per rank, the routing of %2 makes the all-to-all %3 as long as a uniform one on this cluster.</source>
        <translation>每个 rank %1 时，%2 的路由使 all-to-all 耗时为本集群均匀流量的 %3。</translation>
    </message>
    <message>
        <source> (EP ranks)</source>
        <translation>（EP rank）</translation>
    </message>
    <message>
        <source> measured (overload factor)</source>
        <translation> 实测（过载因子）</translation>
    </message>
    <message numerus="yes">
        <source>Project %1 · %n config record(s)</source>
        <translation>
            <numerusform>项目 %1 · %n 条配置记录</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>, %n run(s)</source>
        <translation>
            <numerusform>，%n 个运行</numerusform>
        </translation>
    </message>
    <message>
        <source> · clusters: %1</source>
        <translation> · 集群：%1</translation>
    </message>
    <message>
        <source>Generated %1 by MoE Workbench %2 · data ID %3 (two reports with the same ID were made from the same runs, records and verdicts)</source>
        <translation>由 MoE Workbench %2 于 %1 生成 · 数据 ID %3（ID 相同的两份报告来自相同的运行、记录和结论）</translation>
    </message>
    <message>
        <source>%1. %2 (section %3)</source>
        <translation>%1. %2（第 %3 节）</translation>
    </message>
    <message>
        <source>the method&apos;s default</source>
        <translation>方法默认值</translation>
    </message>
</context>
</TS>
