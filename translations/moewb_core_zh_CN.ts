<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Anatomy</name>
    <message>
        <source>the run names no cluster: stage 1 run %1 of the same record</source>
        <translation>该运行未指定集群：采用同一配置记录的阶段 1 运行 %1</translation>
    </message>
    <message>
        <source>no stage 1 run on cluster %1: run %2 of the same record on %3</source>
        <translation>集群 %1 上没有阶段 1 运行：采用同一配置记录在 %3 上的运行 %2</translation>
    </message>
    <message>
        <source>no named cluster</source>
        <translation>未指定集群</translation>
    </message>
    <message>
        <source>no stage 1 run of this record or cluster to compare with</source>
        <translation>没有该配置记录或集群的阶段 1 运行可供对比</translation>
    </message>
    <message>
        <source>stage 1 run %1 has no usable samples</source>
        <translation>阶段 1 运行 %1 没有可用的样本</translation>
    </message>
    <message>
        <source>outside the sizes stage 1 run %1 measured (%2 to %3 bytes per rank): not extrapolated</source>
        <translation>超出阶段 1 运行 %1 测量的消息大小范围（每 rank %2 到 %3 字节）：不做外推</translation>
    </message>
    <message>
        <source>its rank is not known (no distributedInfo.rank, and the file name names none, as rank-R.json or rankR_trace.json do): with several trace files each must say its rank</source>
        <translation>无法得知其 rank（没有 distributedInfo.rank，文件名也未像 rank-R.json 或 rankR_trace.json 那样给出）：有多个轨迹文件时，每个文件都必须说明其 rank</translation>
    </message>
    <message>
        <source>is a second trace of rank %1 (the first is %2)</source>
        <translation>是 rank %1 的第二个轨迹（第一个是 %2）</translation>
    </message>
    <message>
        <source>is a trace of a world of %1 ranks, but %2 is of %3 ranks</source>
        <translation>是 %1 个 rank 的作业的轨迹，而 %2 属于 %3 个 rank 的作业</translation>
    </message>
    <message>
        <source>is a trace of a world of %1 ranks, but the run&apos;s config record says %2 (nodes × accelerators per node)</source>
        <translation>是 %1 个 rank 的作业的轨迹，但该运行的配置记录为 %2（节点数 × 每节点加速卡数）</translation>
    </message>
    <message>
        <source>is the trace of rank %1, outside its world of %2 ranks</source>
        <translation>是 rank %1 的轨迹，超出了其 %2 个 rank 的作业范围</translation>
    </message>
    <message numerus="yes">
        <source>clocks of %n rank(s) aligned on the ends of the collectives they share</source>
        <translation>
            <numerusform>%n 个 rank 的时钟已按它们共同参与的集合通信的结束时刻对齐</numerusform>
        </translation>
    </message>
    <message>
        <source>rank(s) %1 share no collective with rank %2: their waiting is measured only against ranks they share calls with</source>
        <translation>rank %1 与 rank %2 没有共同的集合通信：其等待时间只相对于与其共享调用的 rank 计算</translation>
    </message>
    <message>
        <source>%1 of %2 ranks traced: the busiest device is the busiest among the ranks traced</source>
        <translation>已记录 %2 个 rank 中 %1 个的轨迹：最忙设备指已记录轨迹的 rank 中最忙的那个</translation>
    </message>
    <message>
        <source>%1 has no &quot;ts&quot;</source>
        <translation>%1 没有 &quot;ts&quot;</translation>
    </message>
    <message>
        <source>%1 has no &quot;dur&quot;</source>
        <translation>%1 没有 &quot;dur&quot;</translation>
    </message>
    <message>
        <source>ProfilerStep#%1 (event %2) never ends: the trace has no &quot;E&quot; event closing it</source>
        <translation>ProfilerStep#%1（事件 %2）没有结束：轨迹中没有关闭它的 &quot;E&quot; 事件</translation>
    </message>
    <message>
        <source>no ProfilerStep#N: the trace was not recorded with a profiler schedule (torch.profiler.schedule and prof.step() each iteration)</source>
        <translation>没有 ProfilerStep#N：该轨迹不是按剖析调度记录的（torch.profiler.schedule，且每次迭代调用 prof.step()）</translation>
    </message>
    <message>
        <source>ProfilerStep#%1 appears twice (events %2 and %3)</source>
        <translation>ProfilerStep#%1 出现了两次（事件 %2 和 %3）</translation>
    </message>
    <message>
        <source>ProfilerStep#%1 (event %2) lies inside ProfilerStep#%3 (event %4)</source>
        <translation>ProfilerStep#%1（事件 %2）位于 ProfilerStep#%3（事件 %4）之内</translation>
    </message>
    <message>
        <source>ProfilerStep#%1 (event %2) overlaps ProfilerStep#%3 (event %4)</source>
        <translation>ProfilerStep#%1（事件 %2）与 ProfilerStep#%3（事件 %4）重叠</translation>
    </message>
    <message>
        <source>more than %1 kernels, launches and collectives: past the bound on what one trace may hold in memory (TraceReadOptions::maxKernels)</source>
        <translation>kernel、启动与集合通信超过 %1 个：超出单个轨迹在内存中可保留的上限（TraceReadOptions::maxKernels）</translation>
    </message>
    <message>
        <source>a %1 event without &quot;ts&quot;</source>
        <translation>一个没有 &quot;ts&quot; 的 %1 事件</translation>
    </message>
    <message>
        <source>a %1 event without &quot;dur&quot;</source>
        <translation>一个没有 &quot;dur&quot; 的 %1 事件</translation>
    </message>
    <message>
        <source>an event without &quot;ts&quot;</source>
        <translation>一个没有 &quot;ts&quot; 的事件</translation>
    </message>
    <message>
        <source>an event without &quot;dur&quot;</source>
        <translation>一个没有 &quot;dur&quot; 的事件</translation>
    </message>
    <message>
        <source>more than %1 CPU ops: past the bound on what one trace may hold in memory (TraceReadOptions::maxKernels)</source>
        <translation>CPU 算子超过 %1 个：超出单个轨迹在内存中可保留的上限（TraceReadOptions::maxKernels）</translation>
    </message>
    <message>
        <source>cannot be opened: %1</source>
        <translation>无法打开：%1</translation>
    </message>
    <message>
        <source>zlib could not be initialised</source>
        <translation>zlib 初始化失败</translation>
    </message>
    <message>
        <source>read error: %1</source>
        <translation>读取错误：%1</translation>
    </message>
    <message>
        <source>the gzip stream ends early (the file is truncated)</source>
        <translation>gzip 流提前结束（文件被截断）</translation>
    </message>
    <message>
        <source>the gzip stream is corrupt (zlib: %1)</source>
        <translation>gzip 流已损坏（zlib：%1）</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>one event or value is larger than %1 MiB</source>
        <translation>单个事件或值大于 %1 MiB</translation>
    </message>
    <message>
        <source>a NUL byte in the JSON text</source>
        <translation>JSON 文本中有 NUL 字节</translation>
    </message>
    <message>
        <source>a control character inside a string (JSON error)</source>
        <translation>字符串中有控制字符（JSON 错误）</translation>
    </message>
    <message>
        <source>a bad \u escape (JSON error)</source>
        <translation>错误的 \u 转义（JSON 错误）</translation>
    </message>
    <message>
        <source>a bad escape in a string (JSON error)</source>
        <translation>字符串中有错误的转义（JSON 错误）</translation>
    </message>
    <message>
        <source>nested deeper than %1 levels</source>
        <translation>嵌套超过 %1 层</translation>
    </message>
    <message>
        <source>&apos;%1&apos; was expected (JSON error)</source>
        <translation>此处应为 &apos;%1&apos;（JSON 错误）</translation>
    </message>
    <message>
        <source>a value was expected (JSON error)</source>
        <translation>此处应为一个值（JSON 错误）</translation>
    </message>
    <message>
        <source>a number was expected</source>
        <translation>此处应为一个数字</translation>
    </message>
    <message>
        <source>a digit was expected after &apos;.&apos;</source>
        <translation>&apos;.&apos; 之后应为数字</translation>
    </message>
    <message>
        <source>the number %1 is out of range</source>
        <translation>数字 %1 超出范围</translation>
    </message>
    <message>
        <source>a key (a string) was expected (JSON error)</source>
        <translation>此处应为键（字符串）（JSON 错误）</translation>
    </message>
    <message>
        <source>&apos;:&apos; was expected after the key (JSON error)</source>
        <translation>键之后应为 &apos;:&apos;（JSON 错误）</translation>
    </message>
    <message>
        <source>&apos;,&apos; or &apos;}&apos; was expected (JSON error)</source>
        <translation>此处应为 &apos;,&apos; 或 &apos;}&apos;（JSON 错误）</translation>
    </message>
    <message>
        <source>an event (a JSON object) was expected</source>
        <translation>此处应为一个事件（JSON 对象）</translation>
    </message>
    <message>
        <source>the file ends inside this value (truncated)</source>
        <translation>文件在此值内部结束（被截断）</translation>
    </message>
    <message>
        <source>the file ends before this event (truncated)</source>
        <translation>文件在此事件之前结束（被截断）</translation>
    </message>
    <message>
        <source>event %1: %2</source>
        <translation>事件 %1：%2</translation>
    </message>
    <message>
        <source>the file ends after this event (truncated)</source>
        <translation>文件在此事件之后结束（被截断）</translation>
    </message>
    <message>
        <source>&apos;,&apos; or &apos;]&apos; was expected after the event (JSON error)</source>
        <translation>事件之后应为 &apos;,&apos; 或 &apos;]&apos;（JSON 错误）</translation>
    </message>
    <message>
        <source>the file ends inside the trace (truncated)</source>
        <translation>文件在轨迹内部结束（被截断）</translation>
    </message>
    <message>
        <source>not a PyTorch profiler trace: the JSON object has no &quot;traceEvents&quot; array</source>
        <translation>不是 PyTorch profiler 轨迹：该 JSON 对象没有 &quot;traceEvents&quot; 数组</translation>
    </message>
    <message>
        <source>not a PyTorch profiler trace: the gzip stream does not hold JSON</source>
        <translation>不是 PyTorch profiler 轨迹：gzip 流中不是 JSON</translation>
    </message>
    <message>
        <source>not a PyTorch profiler trace: it starts with neither &apos;{&apos; nor &apos;[&apos;</source>
        <translation>不是 PyTorch profiler 轨迹：开头既不是 &apos;{&apos; 也不是 &apos;[&apos;</translation>
    </message>
    <message>
        <source>not a regular file</source>
        <translation>不是普通文件</translation>
    </message>
    <message>
        <source>&apos;,&apos; or &apos;]&apos; was expected (JSON error)</source>
        <translation>此处应为 &apos;,&apos; 或 &apos;]&apos;（JSON 错误）</translation>
    </message>
    <message>
        <source>%1: the trace digest is refused, line %2: %3</source>
        <translation>%1：拒绝该 trace 摘要，第 %2 行：%3</translation>
    </message>
    <message>
        <source>a line longer than %1 MiB</source>
        <translation>有一行超过 %1 MiB</translation>
    </message>
    <message>
        <source>the document ends early (no end line): the digest was cut off</source>
        <translation>文档提前结束（没有结束行）：摘要被截断</translation>
    </message>
    <message>
        <source>text after the end line</source>
        <translation>结束行之后还有内容</translation>
    </message>
    <message>
        <source>not a JSON object (%1)</source>
        <translation>不是 JSON 对象（%1）</translation>
    </message>
    <message>
        <source>not a %1 document (schema %2)</source>
        <translation>不是 %1 文档（schema 为 %2）</translation>
    </message>
    <message>
        <source>a bad &quot;%1&quot;</source>
        <translation>&quot;%1&quot; 无效</translation>
    </message>
    <message>
        <source>the end line does not match the %1 files announced</source>
        <translation>结束行与声明的 %1 个文件不符</translation>
    </message>
    <message>
        <source>more files than the %1 announced</source>
        <translation>文件数多于声明的 %1 个</translation>
    </message>
</context>
<context>
    <name>Assessment</name>
    <message>
        <source>Not rated</source>
        <translation>未评级</translation>
    </message>
    <message>
        <source>Insufficient</source>
        <translation>不足</translation>
    </message>
    <message>
        <source>Partial</source>
        <translation>部分达标</translation>
    </message>
    <message>
        <source>Adequate</source>
        <translation>达标</translation>
    </message>
    <message>
        <source>Strong</source>
        <translation>优秀</translation>
    </message>
    <message>
        <source>Not applicable</source>
        <translation>不适用</translation>
    </message>
    <message>
        <source>run %1</source>
        <translation>运行 %1</translation>
    </message>
    <message>
        <source>stage %1</source>
        <translation>阶段 %1</translation>
    </message>
    <message>
        <source>Functional completeness</source>
        <translation>功能完整性</translation>
    </message>
    <message>
        <source>The more complete the coverage, the better it serves as the team&apos;s knowledge baseline.</source>
        <translation>覆盖越完整，越适合作为团队的知识基线。</translation>
    </message>
    <message>
        <source>Correctness of principles</source>
        <translation>原理准确性</translation>
    </message>
    <message>
        <source>Vague or contradictory key concepts call for caution.</source>
        <translation>若关键概念含糊或前后矛盾，需谨慎采用。</translation>
    </message>
    <message>
        <source>Engineering operability</source>
        <translation>工程可操作性</translation>
    </message>
    <message>
        <source>A clear operating checklist means high engineering value.</source>
        <translation>能形成明确的操作清单，则工程价值较高。</translation>
    </message>
    <message>
        <source>Experimental reproducibility</source>
        <translation>实验可复现性</translation>
    </message>
    <message>
        <source>Reproducing the key trends matters more than any single conclusion.</source>
        <translation>能复现关键趋势，比给出单一结论更重要。</translation>
    </message>
    <message>
        <source>Performance tuning guidance</source>
        <translation>性能调优指导</translation>
    </message>
    <message>
        <source>Explaining causes and limits is worth more than absolute numbers.</source>
        <translation>能解释原因和边界，比给出绝对数值更有价值。</translation>
    </message>
    <message>
        <source>Stability and fault tolerance</source>
        <translation>稳定性与容错</translation>
    </message>
    <message>
        <source>Failure modes with troubleshooting paths make it a valuable reference.</source>
        <translation>有故障模式和排查路径，则参考价值较高。</translation>
    </message>
    <message>
        <source>Observability</source>
        <translation>可观测性</translation>
    </message>
    <message>
        <source>The more observable the metrics, the easier production troubleshooting.</source>
        <translation>指标越可观测，越利于生产排障。</translation>
    </message>
    <message>
        <source>Usability</source>
        <translation>易用性</translation>
    </message>
    <message>
        <source>Animations should serve understanding, not only add visual complexity.</source>
        <translation>动画应服务于理解，而不只是增加视觉复杂度。</translation>
    </message>
    <message>
        <source>Cost controllability</source>
        <translation>成本可控性</translation>
    </message>
    <message>
        <source>Pointing out the cost drivers is enough to support the choice.</source>
        <translation>能指出成本驱动因素，即可辅助选型。</translation>
    </message>
    <message>
        <source>Security and compliance</source>
        <translation>安全与合规</translation>
    </message>
    <message>
        <source>It does not replace the security rules, but should state its limits.</source>
        <translation>它不能替代安全规范，但应说明自身的边界。</translation>
    </message>
    <message>
        <source>Resources</source>
        <translation>资源</translation>
    </message>
    <message>
        <source>GPU hours, memory and storage for the evaluation and for production training.</source>
        <translation>评估和生产训练所需的 GPU 时长、显存和存储。</translation>
    </message>
    <message>
        <source>Communication</source>
        <translation>通信</translation>
    </message>
    <message>
        <source>All-to-all traffic and network: expert-parallel size, topology, bandwidth upgrades.</source>
        <translation>all-to-all 流量与网络：专家并行规模、拓扑、带宽升级。</translation>
    </message>
    <message>
        <source>People</source>
        <translation>人力</translation>
    </message>
    <message>
        <source>Engineering and operations effort to run, monitor and maintain MoE training.</source>
        <translation>运行、监控和维护 MoE 训练所需的工程与运维投入。</translation>
    </message>
    <message>
        <source>Migration</source>
        <translation>迁移</translation>
    </message>
    <message>
        <source>Changes to frameworks, checkpoints, pipelines and clusters to move from dense to MoE.</source>
        <translation>从稠密模型转向 MoE 所需的框架、检查点、处理流程和集群改造。</translation>
    </message>
    <message>
        <source>Does the team&apos;s MoE training plan cover the whole workflow?</source>
        <translation>团队的 MoE 训练方案是否覆盖完整流程？</translation>
    </message>
    <message>
        <source>Check the plan item by item: model structure — configuration record — training — monitoring — troubleshooting — recovery.</source>
        <translation>逐项检查方案：模型结构 — 配置记录 — 训练 — 监控 — 排障 — 恢复。</translation>
    </message>
    <message>
        <source>Do the plan&apos;s routing, capacity and load-balancing choices hold together?</source>
        <translation>方案中的路由、容量与负载均衡选择是否相互一致？</translation>
    </message>
    <message>
        <source>Cross-read the config records, the routing lab and the stage 3 load figures; the same top-k, capacity factor and overflow policy everywhere.</source>
        <translation>对照配置记录、路由实验和阶段 3 的负载图：各处的 top-k、容量因子和溢出策略应一致。</translation>
    </message>
    <message>
        <source>Can the team run the evaluation and the training from written steps?</source>
        <translation>团队能否按书面步骤完成评估和训练？</translation>
    </message>
    <message>
        <source>Have a developer set up a small-scale run from the records and the stage commands alone.</source>
        <translation>请一位开发者仅凭记录和各阶段命令搭建一次小规模运行。</translation>
    </message>
    <message>
        <source>Do this evaluation&apos;s measurements reproduce?</source>
        <translation>本次评估的测量能否复现？</translation>
    </message>
    <message>
        <source>Stage 1 repeats and a second baseline; training runs that control experts, top-k, batch and parallelism.</source>
        <translation>阶段 1 的重复测量和第二条基线；控制专家数、top-k、批大小和并行方式的训练运行。</translation>
    </message>
    <message>
        <source>Does the evaluation show what limits the plan&apos;s performance?</source>
        <translation>评估是否揭示了限制方案性能的因素？</translation>
    </message>
    <message>
        <source>Stages 1–3: throughput, all-to-all time against message size, load distribution and the busiest device.</source>
        <translation>阶段 1–3：吞吐量、all-to-all 时间随消息大小的变化、负载分布和最忙设备。</translation>
    </message>
    <message>
        <source>Does the plan cover failures and recovery of MoE training?</source>
        <translation>方案是否涵盖 MoE 训练的故障与恢复？</translation>
    </message>
    <message>
        <source>Inject load imbalance and resource pressure, restore from a checkpoint, and note what the runs show.</source>
        <translation>注入负载不均和资源压力，从检查点恢复，并记录运行的表现。</translation>
    </message>
    <message>
        <source>Does the training log what MoE needs watched?</source>
        <translation>训练是否记录了 MoE 需要关注的指标？</translation>
    </message>
    <message>
        <source>Check that the runs carry routing distribution, tokens per expert, communication time and dropped tokens (stage 3 needs them).</source>
        <translation>检查运行是否包含路由分布、每个专家的 token 数、通信时间和丢弃的 token（阶段 3 需要它们）。</translation>
    </message>
    <message>
        <source>Can the people who decide read this evaluation?</source>
        <translation>做决定的人能否读懂这份评估？</translation>
    </message>
    <message>
        <source>Give the report to readers of different experience; note what they could not answer from it.</source>
        <translation>把报告交给经验不同的读者；记录他们从中找不到答案的问题。</translation>
    </message>
    <message>
        <source>Are the plan&apos;s resource and operating costs estimated?</source>
        <translation>方案的资源与运行成本是否已估算？</translation>
    </message>
    <message>
        <source>Fill the cost estimate: resources, communication, people and migration, with their drivers.</source>
        <translation>填写成本估算：资源、通信、人力和迁移，以及各自的成本驱动因素。</translation>
    </message>
    <message>
        <source>Are the plan&apos;s data, permission and audit risks handled?</source>
        <translation>方案的数据、权限与审计风险是否已处理？</translation>
    </message>
    <message>
        <source>Check sensitive data in training data and logs, access to clusters, and checkpoint management.</source>
        <translation>检查训练数据和日志中的敏感数据、集群访问权限以及检查点管理。</translation>
    </message>
    <message>
        <source>not recorded</source>
        <translation>未记录</translation>
    </message>
    <message>
        <source>pass</source>
        <translation>通过</translation>
    </message>
    <message>
        <source>stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>stale</source>
        <translation>已过期</translation>
    </message>
    <message>
        <source>not ready</source>
        <translation>未就绪</translation>
    </message>
    <message>
        <source>stage %1 not decided</source>
        <translation>阶段 %1 尚无结论</translation>
    </message>
    <message>
        <source>stage %1 stop, overridden</source>
        <translation>阶段 %1 停止，已越过</translation>
    </message>
    <message>
        <source>stage %1 %2</source>
        <translation>阶段 %1 %2</translation>
    </message>
    <message>
        <source>The method&apos;s four stages: %1.</source>
        <translation>方法的四个阶段：%1。</translation>
    </message>
    <message numerus="yes">
        <source>%n config record(s) and %1 run(s) in the project.</source>
        <translation>
            <numerusform>项目中有 %n 条配置记录、%1 个运行。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Routing across %n MoE config record(s): top-k %1; capacity factor %2; overflow policy %3.</source>
        <translation>
            <numerusform>%n 条 MoE 配置记录的路由：top-k %1；容量因子 %2；溢出策略 %3。</numerusform>
        </translation>
    </message>
    <message>
        <source>Not the same everywhere: throughput compared across them is not like for like (misjudgment check 2).</source>
        <translation>各处并不一致：跨这些记录比较吞吐并非同条件对比（误判检查 2）。</translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n config record(s) complete; the stages take runs of complete records only.</source>
        <translation>
            <numerusform>%n 条配置记录中 %1 条完整；各阶段只采用完整记录的运行。</numerusform>
        </translation>
    </message>
    <message>
        <source>Clusters defined for measuring from the workbench: %1.</source>
        <translation>已定义、可从工作台发起测量的集群：%1。</translation>
    </message>
    <message>
        <source>; run-to-run CV at most %1 (run %2).</source>
        <translation>；运行间变异系数最高 %1（运行 %2）。</translation>
    </message>
    <message>
        <source>; no size has two repeats, so no run-to-run spread.</source>
        <translation>；没有任何大小重复两次，因此没有运行间离散度。</translation>
    </message>
    <message>
        <source>Stage 1: all-to-all time from %1 to %2 per rank%3.</source>
        <translation>阶段 1：每 rank %1 到 %2 的 all-to-all 时间%3。</translation>
    </message>
    <message>
        <source>%1 (%2 runs)</source>
        <translation>%1（%2 个运行）</translation>
    </message>
    <message>
        <source>No training run is repeated on the same config record: a second seed would show the run-to-run spread of the stage 2 comparison.</source>
        <translation>没有训练运行在同一配置记录上重复：再用一个随机种子即可看出阶段 2 对比的运行间离散度。</translation>
    </message>
    <message>
        <source>Training runs repeated on one config record: %1.</source>
        <translation>在同一配置记录上重复的训练运行：%1。</translation>
    </message>
    <message numerus="yes">
        <source>Stages 2–3: %n training run(s), %1 of them MoE; per-expert load in %2.</source>
        <translation>
            <numerusform>阶段 2–3：%n 个训练运行，其中 MoE %1 个；%2 个带逐专家负载。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 (%n step(s))</source>
        <translation>
            <numerusform>%1（%n 步）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>No loss spike in %n run(s) with a training loss (a step over 1.2× the median of the 20 steps before it).</source>
        <translation>
            <numerusform>%n 个带训练损失的运行中没有损失尖峰（某步超过其前 20 步中位数的 1.2 倍）。</numerusform>
        </translation>
    </message>
    <message>
        <source>Loss spikes (a step over 1.2× the median of the 20 steps before it): %1.</source>
        <translation>损失尖峰（某步超过其前 20 步中位数的 1.2 倍）：%1。</translation>
    </message>
    <message>
        <source>Highest token drop rate logged: %1 (run %2).</source>
        <translation>记录到的最高 token 丢弃率：%1（运行 %2）。</translation>
    </message>
    <message numerus="yes">
        <source>per-expert load in %1 of %n MoE run(s)</source>
        <translation>
            <numerusform>%n 个 MoE 运行中 %1 个有逐专家负载</numerusform>
        </translation>
    </message>
    <message>
        <source>drop rate in %1</source>
        <translation>%1 个有丢弃率</translation>
    </message>
    <message>
        <source>load-balancing loss in %1</source>
        <translation>%1 个有负载均衡损失</translation>
    </message>
    <message>
        <source>busiest-device share in %1</source>
        <translation>%1 个有最忙设备占比</translation>
    </message>
    <message numerus="yes">
        <source>validation loss in %1 of %n training run(s)</source>
        <translation>
            <numerusform>%n 个训练运行中 %1 个有验证损失</numerusform>
        </translation>
    </message>
    <message>
        <source>throughput in %1</source>
        <translation>%1 个有吞吐</translation>
    </message>
    <message>
        <source>Logged: %1.</source>
        <translation>已记录：%1。</translation>
    </message>
    <message>
        <source>No run carries the collector&apos;s sidecar (moewb_collect): drop rate and busiest-device share are then only what the framework logs.</source>
        <translation>没有运行带采集器的旁路文件（moewb_collect）：丢弃率和最忙设备占比只能依赖框架自身的日志。</translation>
    </message>
    <message>
        <source>The collector&apos;s sidecar (moewb_collect) is in: %1.</source>
        <translation>带采集器旁路文件（moewb_collect）的运行：%1。</translation>
    </message>
    <message>
        <source>%1: %2 GPU-hours per billion tokens (median %3 tokens/s per GPU).</source>
        <translation>%1：每十亿 token %2 GPU 小时（每 GPU 中位吞吐 %3 token/s）。</translation>
    </message>
    <message numerus="yes">
        <source>%n repeat(s) per message size</source>
        <translation>
            <numerusform>每个消息大小 %n 次重复</numerusform>
        </translation>
    </message>
    <message>
        <source>%1–%2 repeats per message size</source>
        <translation>每个消息大小 %1–%2 次重复</translation>
    </message>
    <message numerus="yes">
        <source>Stage 1: %n probe run(s), %1</source>
        <translation>
            <numerusform>阶段 1：%n 个探针运行，%1</numerusform>
        </translation>
    </message>
    <message>
        <source> at %1</source>
        <translation>，在 %1 上</translation>
    </message>
</context>
<context>
    <name>Checks</name>
    <message>
        <source>?</source>
        <translation>?</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>top-k %1 · capacity factor %2 · overflow %3</source>
        <translation>Top-K %1 · 容量因子 %2 · 溢出策略 %3</translation>
    </message>
    <message>
        <source>drop rate %1</source>
        <translation>丢弃率 %1</translation>
    </message>
    <message>
        <source>drop rate not logged</source>
        <translation>未记录丢弃率</translation>
    </message>
    <message>
        <source>an unrecorded cluster</source>
        <translation>未登记的集群</translation>
    </message>
    <message>
        <source>Throughput of run %1 comes from cluster &quot;%2&quot;, which has no stage 1 baseline, while the project also holds data from %3.</source>
        <translation>运行 %1 的吞吐量来自集群“%2”，该集群没有阶段 1 基线，而项目中还有来自 %3 的数据。</translation>
    </message>
    <message>
        <source>Another cluster&apos;s throughput used as this cluster&apos;s expectation</source>
        <translation>把另一集群的吞吐量当作本集群的预期</translation>
    </message>
    <message>
        <source>Run stage 1 on each cluster first; the communication baselines show where a throughput gap comes from.</source>
        <translation>先在每个集群上运行阶段 1；通信基线能说明吞吐量差距来自哪里。</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>Throughput is logged for MoE runs with different routing settings: %1. Their throughputs are not comparable.</source>
        <translation>多个路由设置不同的 MoE 运行记录了吞吐量：%1。它们的吞吐量不可比较。</translation>
    </message>
    <message>
        <source>Runs %1 do not record top-k, capacity factor and overflow policy, so their throughput cannot be placed in a comparable table.</source>
        <translation>运行 %1 未记录 Top-K、容量因子和溢出策略，因此无法把其吞吐量放入可比较的表中。</translation>
    </message>
    <message>
        <source>Throughput compared across capacity factor or overflow policy</source>
        <translation>跨容量因子或溢出策略比较吞吐量</translation>
    </message>
    <message>
        <source>Record capacity factor and overflow policy (and top-k) for every run and compare throughput only within one setting; the workbench puts each setting in its own table.</source>
        <translation>为每个运行记录容量因子和溢出策略（以及 Top-K），只在同一设置内比较吞吐量；工作台会把每种设置单独列表。</translation>
    </message>
    <message>
        <source>Run %1 has training metrics%2 but no tokens per expert: max/mean load and the busiest-device share cannot be computed.</source>
        <translation>运行 %1 有训练指标%2，但没有每个专家的 token 数：无法计算负载 max/mean 和最忙设备占比。</translation>
    </message>
    <message>
        <source> and a load-balancing loss (a mean-level measure)</source>
        <translation>及负载均衡损失（只反映均值水平）</translation>
    </message>
    <message>
        <source>Run %1 has expert load but no EP size in its record: the busiest-device share cannot be estimated.</source>
        <translation>运行 %1 有专家负载，但其配置记录中没有 EP 规模：无法估算最忙设备占比。</translation>
    </message>
    <message>
        <source>Only the mean load reported</source>
        <translation>只报告平均负载</translation>
    </message>
    <message>
        <source>Log tokens per expert per layer and step and report load max/mean and the busiest-device share beside the mean (stage 3).</source>
        <translation>按层、按步记录每个专家的 token 数，并在均值之外同时报告负载 max/mean 和最忙设备占比（阶段 3）。</translation>
    </message>
    <message>
        <source>Run %1 is faster than %2 (%3 vs %4 tokens/s/GPU) but its %5 is worse (%6 vs %7 at %8 tokens); %1: %9, %2: %10.</source>
        <translation>运行 %1 比 %2 快（%3 对 %4 tokens/s/GPU），但其%5更差（在 %8 个 token 处为 %6 对 %7）；%1：%9，%2：%10。</translation>
    </message>
    <message>
        <source>validation loss</source>
        <translation>验证损失</translation>
    </message>
    <message>
        <source>training loss</source>
        <translation>训练损失</translation>
    </message>
    <message>
        <source>Higher throughput taken as better while the loss got worse</source>
        <translation>吞吐量提升就认为更好，而损失却变差了</translation>
    </message>
    <message>
        <source>Look at throughput and loss together and record the drop rate: the extra speed may come from dropping more tokens.</source>
        <translation>同时看吞吐量和损失，并记录丢弃率：多出来的速度可能来自丢弃了更多 token。</translation>
    </message>
    <message>
        <source>Run %1 trains on %2 nodes, but stage 1 never ran.</source>
        <translation>运行 %1 在 %2 个节点上训练，但阶段 1 从未运行。</translation>
    </message>
    <message>
        <source>Single-node results extrapolated to multi-node</source>
        <translation>把单节点结果外推到多节点</translation>
    </message>
    <message>
        <source>Run stage 1 at the target node count: intra-node and inter-node all-to-all differ widely in latency and bandwidth.</source>
        <translation>在目标节点数下运行阶段 1：节点内与跨节点的 all-to-all 在延迟和带宽上差异很大。</translation>
    </message>
    <message>
        <source>Run %1 does not record how many warm-up steps its throughput excludes.</source>
        <translation>运行 %1 未记录其吞吐量统计排除了多少个预热步。</translation>
    </message>
    <message>
        <source>Run %1 excludes no warm-up steps from its throughput statistics.</source>
        <translation>运行 %1 的吞吐量统计没有排除任何预热步。</translation>
    </message>
    <message>
        <source>Run %1 excludes %2 warm-up steps, but the next 5 steps still run at %3 tokens/s/GPU against %4 later (median): the warm-up is longer.</source>
        <translation>运行 %1 排除了 %2 个预热步，但随后 5 步仍只有 %3 tokens/s/GPU，而之后为 %4（中位数）：预热期更长。</translation>
    </message>
    <message>
        <source>Warm-up steps inside throughput statistics</source>
        <translation>吞吐量统计包含预热步</translation>
    </message>
    <message>
        <source>Exclude the warm-up steps (throughput.warmup_steps_excluded in the config record) and report only the steady phase.</source>
        <translation>排除预热步（配置记录中的 throughput.warmup_steps_excluded），只报告稳定阶段的统计值。</translation>
    </message>
    <message numerus="yes">
        <source>%n run(s) with throughput from a cluster that has no stage 1 baseline: %1</source>
        <translation>
            <numerusform>%n 个运行的吞吐量来自没有阶段 1 基线的集群：%1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n MoE run(s) with mixed or unrecorded routing settings: %1</source>
        <translation>
            <numerusform>%n 个 MoE 运行的路由设置不一致或未记录：%1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n MoE run(s) without per-expert load or EP size: %1</source>
        <translation>
            <numerusform>%n 个 MoE 运行缺少逐专家负载或 EP 规模：%1</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 over %2</source>
        <translation>%1 快于 %2</translation>
    </message>
    <message numerus="yes">
        <source>%n run pair(s) faster but with a worse loss: %1</source>
        <translation>
            <numerusform>%n 对运行更快但损失更差：%1</numerusform>
        </translation>
    </message>
    <message>
        <source>Run %1 trains on %2 nodes, but stage 1 ran only at %3.</source>
        <translation>运行 %1 在 %2 个节点上训练，但阶段 1 只在 %3 上测过。</translation>
    </message>
    <message numerus="yes">
        <source>%n run(s) train at a node count stage 1 did not measure: %1</source>
        <translation>
            <numerusform>%n 个运行的训练节点数未经阶段 1 测量：%1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n run(s) with warm-up steps inside their throughput: %1</source>
        <translation>
            <numerusform>%n 个运行的吞吐量统计含预热步：%1</numerusform>
        </translation>
    </message>
    <message>
        <source>drop rate not applicable</source>
        <translation>丢弃率不适用</translation>
    </message>
    <message>
        <source>The MoE runs use %1 routing settings (top-k, capacity factor, overflow policy): each is compared with the dense control in its own table, never with the others.</source>
        <translation>这些 MoE 运行使用 %1 种路由设置(top-k、容量因子、溢出策略):每种设置在各自的表中与稠密对照比较,彼此之间从不比较。</translation>
    </message>
    <message>
        <source>Run %1 has Megatron-Core&apos;s overload factor per layer but no tokens per expert: its load ratio is the EP ranks&apos;, a lower bound of the per-expert max/mean.</source>
        <translation>运行 %1 有 Megatron-Core 的逐层过载因子，但没有每个专家的 token 数：其负载比是 EP rank 的负载比，是按专家计算的最大值/均值的下界。</translation>
    </message>
    <message>
        <source>Misjudgment warning %1 applies to these runs: %2 (its evidence and fix are with the misjudgment warnings).</source>
        <translation>误判警告 %1 适用于这些运行：%2（其证据与修正方法见误判警告）。</translation>
    </message>
</context>
<context>
    <name>Comparability</name>
    <message numerus="yes">
        <source>Comparison refused: %n run(s) have missing or invalid config-record fields.</source>
        <translation>
            <numerusform>拒绝比较：%n 个运行的配置记录字段缺失或无效。</numerusform>
        </translation>
    </message>
    <message>
        <source>Run &quot;%1&quot;:</source>
        <translation>运行“%1”：</translation>
    </message>
    <message>
        <source>top-k %1 · capacity factor %2 · overflow %3</source>
        <translation>Top-K %1 · 容量因子 %2 · 溢出策略 %3</translation>
    </message>
    <message>
        <source>dense</source>
        <translation>稠密</translation>
    </message>
</context>
<context>
    <name>ConfigRecord</name>
    <message>
        <source>an object</source>
        <translation>对象</translation>
    </message>
    <message>
        <source>%1 must be %2, got %3</source>
        <translation>%1 应为%2，实际为 %3</translation>
    </message>
    <message>
        <source>%1 is not a known field</source>
        <translation>%1 不是已知字段</translation>
    </message>
    <message>
        <source>%1 is not a known field (did you mean %2?)</source>
        <translation>%1 不是已知字段（是否想写 %2？）</translation>
    </message>
    <message>
        <source>%1 must be an object, got %2</source>
        <translation>%1 应为对象，实际为 %2</translation>
    </message>
    <message>
        <source>%1 must be at most %2, got %3</source>
        <translation>%1 不能超过 %2，实际为 %3</translation>
    </message>
    <message>
        <source>format_version must be %1, got %2: this version of MoE Workbench reads config records of format %1</source>
        <translation>format_version 应为 %1，实际为 %2：此版本的 MoE Workbench 读取格式 %1 的配置记录</translation>
    </message>
    <message>
        <source>%1 must be a string, got %2</source>
        <translation>%1 应为字符串，实际为 %2</translation>
    </message>
    <message>
        <source>an array</source>
        <translation>数组</translation>
    </message>
    <message>
        <source>nothing</source>
        <translation>空</translation>
    </message>
</context>
<context>
    <name>Costs</name>
    <message>
        <source>the record has no %1</source>
        <translation>配置记录缺少 %1</translation>
    </message>
    <message>
        <source>the parallel sizes must be positive</source>
        <translation>并行规模必须为正数</translation>
    </message>
</context>
<context>
    <name>Demo</name>
    <message>
        <source>the demo&apos;s config record is missing from the program</source>
        <translation>程序中缺少演示用的配置记录</translation>
    </message>
    <message>
        <source>not a JSON object: %1</source>
        <translation>不是 JSON 对象：%1</translation>
    </message>
    <message>
        <source>the demo record is incomplete: %1</source>
        <translation>演示记录不完整：%1</translation>
    </message>
    <message>
        <source>the demo&apos;s draft record must be incomplete</source>
        <translation>演示的草稿记录必须是不完整的</translation>
    </message>
    <message>
        <source>demo: set by the (fictional) team</source>
        <translation>演示：由（虚构的）团队设定</translation>
    </message>
    <message>
        <source>no file name given for the demo project</source>
        <translation>未给出演示项目的文件名</translation>
    </message>
    <message>
        <source>is a folder, not a project file</source>
        <translation>是文件夹，不是项目文件</translation>
    </message>
    <message>
        <source>already exists; not replaced (moewb demo --force replaces it)</source>
        <translation>已存在，未替换（moewb demo --force 会替换它）</translation>
    </message>
    <message>
        <source>cannot create the folder %1</source>
        <translation>无法创建文件夹 %1</translation>
    </message>
    <message>
        <source>cannot create a temporary file beside it: %1</source>
        <translation>无法在其旁边创建临时文件：%1</translation>
    </message>
    <message>
        <source>cannot move the finished demo into place: %1</source>
        <translation>无法把生成的演示项目移到目标位置：%1</translation>
    </message>
    <message>
        <source>the benchmark needs steps ≥ 1, layers ≥ 1 and 2 ≤ experts ≤ 4096 (got %1 steps, %2 layers, %3 experts)</source>
        <translation>基准测试要求步数 ≥ 1、层数 ≥ 1 且 2 ≤ 专家数 ≤ 4096（实际为 %1 步、%2 层、%3 个专家）</translation>
    </message>
    <message>
        <source>the benchmark record is incomplete: %1</source>
        <translation>基准测试记录不完整：%1</translation>
    </message>
</context>
<context>
    <name>Importers</name>
    <message>
        <source>the header must start with step,layer (got %1)</source>
        <translation>表头必须以 step,layer 开头（实际为 %1）</translation>
    </message>
    <message>
        <source>the header names no expert column</source>
        <translation>表头中没有专家列</translation>
    </message>
    <message>
        <source>more than %1 expert columns</source>
        <translation>专家列超过 %1 个</translation>
    </message>
    <message>
        <source>has %1 fields, the header (line %2) has %3 (truncated or malformed)</source>
        <translation>有 %1 个字段，而表头（第 %2 行）有 %3 个（被截断或格式错误）</translation>
    </message>
    <message>
        <source>step %1, layer %2 appears again (first on line %3)</source>
        <translation>第 %1 步、第 %2 层重复出现（首次出现在第 %3 行）</translation>
    </message>
    <message>
        <source>the file is empty (a header &quot;step,layer,...&quot; was expected)</source>
        <translation>文件为空（应有表头 &quot;step,layer,...&quot;）</translation>
    </message>
    <message>
        <source>a header but no data rows</source>
        <translation>只有表头，没有数据行</translation>
    </message>
    <message>
        <source>a quoted field is not closed on its line</source>
        <translation>带引号的字段在本行内没有闭合</translation>
    </message>
    <message>
        <source>text after a closing quote</source>
        <translation>闭合引号之后还有文本</translation>
    </message>
    <message>
        <source>the first column must be &quot;step&quot; (header: %1)</source>
        <translation>第一列必须是 &quot;step&quot;（表头：%1）</translation>
    </message>
    <message>
        <source>the header names no metric column</source>
        <translation>表头中没有指标列</translation>
    </message>
    <message>
        <source>is not a metric name (lower-case letters, digits and _; starting with a letter)</source>
        <translation>不是有效的指标名（小写字母、数字和 _，以字母开头）</translation>
    </message>
    <message>
        <source>appears twice in the header</source>
        <translation>在表头中出现了两次</translation>
    </message>
    <message>
        <source>is absurd: %1 (expected between %2 and %3)</source>
        <translation>数值不合理：%1（应在 %2 到 %3 之间）</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a metric name (lower-case letters, digits and _)</source>
        <translation>“%1”不是有效的指标名（小写字母、数字和 _）</translation>
    </message>
    <message>
        <source>the file is empty (a header &quot;step,...&quot; was expected)</source>
        <translation>文件为空（应有表头 &quot;step,...&quot;）</translation>
    </message>
    <message>
        <source>a JSON object was expected at the start of the line</source>
        <translation>行首应为一个 JSON 对象</translation>
    </message>
    <message>
        <source>a key (a string) was expected</source>
        <translation>此处应为键（字符串）</translation>
    </message>
    <message>
        <source>&apos;:&apos; was expected after the key</source>
        <translation>键之后应为 &apos;:&apos;</translation>
    </message>
    <message>
        <source>appears twice</source>
        <translation>出现了两次</translation>
    </message>
    <message>
        <source>is absurd: %1 (at most %2)</source>
        <translation>数值不合理：%1（最多 %2）</translation>
    </message>
    <message>
        <source>must be an array of token counts</source>
        <translation>必须是 token 数组成的数组</translation>
    </message>
    <message>
        <source>must be a flat array of token counts, one per expert</source>
        <translation>必须是一维的 token 数数组，每个专家一个值</translation>
    </message>
    <message>
        <source>is absurd: %1 tokens for one expert (at most %2)</source>
        <translation>数值不合理：单个专家 %1 个 token（最多 %2）</translation>
    </message>
    <message>
        <source>lists more than %1 experts</source>
        <translation>列出的专家超过 %1 个</translation>
    </message>
    <message>
        <source>rows of different lengths (%1 and more)</source>
        <translation>各行长度不同（%1 及更多）</translation>
    </message>
    <message>
        <source>is absurd: more than %1 tokens for expert %2</source>
        <translation>数值不合理：专家 %2 的 token 超过 %1 个</translation>
    </message>
    <message>
        <source>rows of different lengths (%1 and %2)</source>
        <translation>各行长度不同（%1 和 %2）</translation>
    </message>
    <message>
        <source>must be an array of arrays of token counts</source>
        <translation>必须是由 token 数数组组成的数组</translation>
    </message>
    <message>
        <source>&apos;,&apos; or &apos;]&apos; was expected</source>
        <translation>此处应为 &apos;,&apos; 或 &apos;]&apos;</translation>
    </message>
    <message>
        <source>lists no experts</source>
        <translation>没有列出任何专家</translation>
    </message>
    <message>
        <source>&apos;,&apos; or &apos;}&apos; was expected</source>
        <translation>此处应为 &apos;,&apos; 或 &apos;}&apos;</translation>
    </message>
    <message>
        <source>the line ends inside the object (truncated)</source>
        <translation>该行在对象内部结束（被截断）</translation>
    </message>
    <message>
        <source>unexpected text after the object</source>
        <translation>对象之后有多余的文本</translation>
    </message>
    <message>
        <source>is missing</source>
        <translation>缺失</translation>
    </message>
    <message>
        <source>has %1 experts but line %2 has %3</source>
        <translation>有 %1 个专家，但第 %2 行有 %3 个</translation>
    </message>
    <message>
        <source>%1 %2, layer %3 appears again (first on line %4)</source>
        <translation>%1 %2、第 %3 层重复出现（首次出现在第 %4 行）</translation>
    </message>
    <message>
        <source>no expert-load lines found (the file is empty)</source>
        <translation>未找到专家负载行（文件为空）</translation>
    </message>
    <message>
        <source>cannot tell the format (%1); give --format, one of: %2</source>
        <translation>无法判断格式（%1）；请用 --format 指定，可选：%2</translation>
    </message>
    <message>
        <source>the file is empty</source>
        <translation>文件为空</translation>
    </message>
    <message>
        <source>a JSON object on line %1 with none of the keys the formats use</source>
        <translation>第 %1 行的 JSON 对象不含任何已知格式使用的键</translation>
    </message>
    <message>
        <source>a JSON document that is neither a moe-probe report nor nccl-tests -J output</source>
        <translation>该 JSON 文档既不是 moe-probe 报告，也不是 nccl-tests -J 的输出</translation>
    </message>
    <message>
        <source>unknown format &quot;%1&quot;; known formats: %2</source>
        <translation>未知格式“%1”；已知格式：%2</translation>
    </message>
    <message>
        <source>is a folder, not a file</source>
        <translation>是文件夹，不是文件</translation>
    </message>
    <message>
        <source>cannot read: %1</source>
        <translation>无法读取：%1</translation>
    </message>
    <message>
        <source>, but the input ends here (truncated)</source>
        <translation>，但输入在此结束（被截断）</translation>
    </message>
    <message>
        <source>a string was expected</source>
        <translation>此处应为字符串</translation>
    </message>
    <message>
        <source>the string is not closed before the end of the line</source>
        <translation>字符串在行尾之前没有闭合</translation>
    </message>
    <message>
        <source>a control character inside a string</source>
        <translation>字符串中有控制字符</translation>
    </message>
    <message>
        <source>a bad \u escape in a string</source>
        <translation>字符串中的 \u 转义无效</translation>
    </message>
    <message>
        <source>a bad surrogate pair in a string</source>
        <translation>字符串中的代理对无效</translation>
    </message>
    <message>
        <source>an unknown escape \%1 in a string</source>
        <translation>字符串中有未知的转义 \%1</translation>
    </message>
    <message>
        <source>the string is not closed (the file ends inside it)</source>
        <translation>字符串没有闭合（文件在字符串内部结束）</translation>
    </message>
    <message>
        <source>is not finite (%1): NaN and infinity are refused</source>
        <translation>不是有限数（%1）：不接受 NaN 和无穷大</translation>
    </message>
    <message>
        <source>a value was expected, found &quot;%1&quot;</source>
        <translation>此处应为一个值，实际为“%1”</translation>
    </message>
    <message>
        <source>a value was expected, found the end of the input</source>
        <translation>此处应为一个值，但已到输入末尾</translation>
    </message>
    <message>
        <source>a number may not start with 0</source>
        <translation>数字不能以 0 开头</translation>
    </message>
    <message>
        <source>digits must follow the decimal point</source>
        <translation>小数点后必须有数字</translation>
    </message>
    <message>
        <source>digits must follow the exponent</source>
        <translation>指数部分必须有数字</translation>
    </message>
    <message>
        <source>is out of range (not finite): %1</source>
        <translation>超出范围（不是有限数）：%1</translation>
    </message>
    <message>
        <source>is not a number: &quot;%1&quot;</source>
        <translation>不是数字：“%1”</translation>
    </message>
    <message>
        <source>must be a non-negative integer, got a string</source>
        <translation>必须是非负整数，实际为字符串</translation>
    </message>
    <message>
        <source>must be a non-negative integer, got an array</source>
        <translation>必须是非负整数，实际为数组</translation>
    </message>
    <message>
        <source>must be a non-negative integer, got an object</source>
        <translation>必须是非负整数，实际为对象</translation>
    </message>
    <message>
        <source>must be a non-negative integer, got a boolean</source>
        <translation>必须是非负整数，实际为布尔值</translation>
    </message>
    <message>
        <source>must be a non-negative integer, got null</source>
        <translation>必须是非负整数，实际为 null</translation>
    </message>
    <message>
        <source>must be a non-negative integer, got %1</source>
        <translation>必须是非负整数，实际为 %1</translation>
    </message>
    <message>
        <source>must be an integer, got %1</source>
        <translation>必须是整数，实际为 %1</translation>
    </message>
    <message>
        <source>%1 was expected</source>
        <translation>此处应为 %1</translation>
    </message>
    <message>
        <source>nested deeper than %1 levels</source>
        <translation>嵌套超过 %1 层</translation>
    </message>
    <message>
        <source>&apos;:&apos; was expected after a key</source>
        <translation>键之后应为 &apos;:&apos;</translation>
    </message>
    <message>
        <source>must be an object, got %1</source>
        <translation>必须是对象，实际为 %1</translation>
    </message>
    <message>
        <source>must be an array, got %1</source>
        <translation>必须是数组，实际为 %1</translation>
    </message>
    <message numerus="yes">
        <source>must have at least %n item(s), got %1</source>
        <translation>
            <numerusform>至少需要 %n 项，实际为 %1</numerusform>
        </translation>
    </message>
    <message>
        <source>must be a number, got %1</source>
        <translation>必须是数字，实际为 %1</translation>
    </message>
    <message>
        <source>is not finite</source>
        <translation>不是有限数</translation>
    </message>
    <message>
        <source>must be between %1 and %2, got %3</source>
        <translation>必须在 %1 到 %2 之间，实际为 %3</translation>
    </message>
    <message>
        <source>must be a string, got %1</source>
        <translation>必须是字符串，实际为 %1</translation>
    </message>
    <message>
        <source>must not be empty</source>
        <translation>不能为空</translation>
    </message>
    <message>
        <source>not valid JSON: column %1: %2</source>
        <translation>不是有效的 JSON：第 %1 列：%2</translation>
    </message>
    <message>
        <source>no metric lines found (the file is empty)</source>
        <translation>未找到指标行（文件为空）</translation>
    </message>
    <message>
        <source>null</source>
        <translation>null</translation>
    </message>
    <message>
        <source>true</source>
        <translation>true</translation>
    </message>
    <message>
        <source>false</source>
        <translation>false</translation>
    </message>
    <message>
        <source>the number %1</source>
        <translation>数字 %1</translation>
    </message>
    <message>
        <source>the string &quot;%1&quot;</source>
        <translation>字符串 &quot;%1&quot;</translation>
    </message>
    <message>
        <source>an array</source>
        <translation>数组</translation>
    </message>
    <message>
        <source>an object</source>
        <translation>对象</translation>
    </message>
    <message>
        <source>the key &quot;%1&quot; appears twice in one object</source>
        <translation>键“%1”在同一个对象中出现了两次</translation>
    </message>
    <message>
        <source>&apos;:&apos; was expected after the key &quot;%1&quot;</source>
        <translation>键“%1”之后应为 &apos;:&apos;</translation>
    </message>
    <message>
        <source>unexpected text after the end of the JSON value</source>
        <translation>JSON 值结束后还有多余的文本</translation>
    </message>
    <message>
        <source>a field without a value (&quot;key: value&quot; was expected)</source>
        <translation>字段没有值（应为 &quot;key: value&quot;）</translation>
    </message>
    <message>
        <source>a field without a name</source>
        <translation>字段没有名称</translation>
    </message>
    <message>
        <source>is absurd: iteration %1 of %2</source>
        <translation>数值不合理：迭代 %1 / %2</translation>
    </message>
    <message>
        <source>a validation line without fields (truncated?)</source>
        <translation>验证行没有字段（被截断？）</translation>
    </message>
    <message>
        <source>the validation line ends inside a field (truncated)</source>
        <translation>验证行在字段内部结束（被截断）</translation>
    </message>
    <message>
        <source>no Megatron iteration lines (&quot;iteration N/ M | key: value |&quot;) found</source>
        <translation>未找到 Megatron 迭代行（&quot;iteration N/ M | key: value |&quot;）</translation>
    </message>
    <message>
        <source>runs %1, not alltoall or alltoallv; only all-to-all tests are imported</source>
        <translation>运行的是 %1，不是 alltoall 或 alltoallv；只导入 all-to-all 测试</translation>
    </message>
    <message>
        <source>is %1: a reduction (all_reduce, reduce or reduce_scatter), not alltoall</source>
        <translation>是 %1：这是归约操作（all_reduce、reduce 或 reduce_scatter），不是 alltoall</translation>
    </message>
    <message>
        <source>is %1 for %2 bytes on %3 ranks; the file does not name its test and an alltoall prints size / (type size × ranks)</source>
        <translation>在 %3 个 rank、%2 字节时为 %1；文件没有写明测试名称，而 alltoall 输出的是 size / (类型大小 × rank 数)</translation>
    </message>
    <message>
        <source>must be &gt; 0 for %1 bytes</source>
        <translation>%1 字节时必须 &gt; 0</translation>
    </message>
    <message>
        <source>an nccl-tests header line that cannot be read: &quot;%1&quot;</source>
        <translation>无法读取的 nccl-tests 表头行：“%1”</translation>
    </message>
    <message>
        <source>a second column header (the first is on line %1) inside one test: the output of several nccl-tests runs is interleaved; split it into one file per run</source>
        <translation>同一测试中出现了第二个列表头（第一个在第 %1 行）：多次 nccl-tests 运行的输出交织在一起；请把每次运行拆分到单独的文件</translation>
    </message>
    <message>
        <source>the column header does not start with size, count, type: &quot;%1&quot;</source>
        <translation>列表头不是以 size, count, type 开头：“%1”</translation>
    </message>
    <message>
        <source>the column header has %1 columns; nccl-tests prints at most 20</source>
        <translation>列表头有 %1 列；nccl-tests 最多输出 20 列</translation>
    </message>
    <message>
        <source>the column header has no time and algbw columns: &quot;%1&quot;</source>
        <translation>列表头中没有 time 和 algbw 列：“%1”</translation>
    </message>
    <message>
        <source>a data row before any column header (&quot;# size count type ...&quot;)</source>
        <translation>在任何列表头（&quot;# size count type ...&quot;）之前出现了数据行</translation>
    </message>
    <message>
        <source>the file ends inside this row (truncated)</source>
        <translation>文件在这一行内部结束（被截断）</translation>
    </message>
    <message>
        <source>has %1 values; the column header (line %2) calls for %3 to %4</source>
        <translation>有 %1 个值；列表头（第 %2 行）要求 %3 到 %4 个</translation>
    </message>
    <message>
        <source>is N/A; a measured value was expected</source>
        <translation>为 N/A；此处应为实测值</translation>
    </message>
    <message>
        <source>must not be negative, got %1</source>
        <translation>不能为负数，实际为 %1</translation>
    </message>
    <message>
        <source>is absurd: %1 µs is more than %2 µs for one call</source>
        <translation>数值不合理：单次调用 %1 µs，超过 %2 µs</translation>
    </message>
    <message>
        <source>is absurd: %1 GB/s</source>
        <translation>数值不合理：%1 GB/s</translation>
    </message>
    <message>
        <source>is %1 GB/s but size / time gives %2 GB/s: the row is inconsistent</source>
        <translation>为 %1 GB/s，但 size / time 得出 %2 GB/s：该行数据前后矛盾</translation>
    </message>
    <message>
        <source>holds %1 interleaved nccl-tests runs (%2 &quot;# nThread&quot; headers before the first table, rank 0 listed %3 times): the runs were written into one file at once and cannot be told apart; run them one per file and import each</source>
        <translation>包含 %1 次交织在一起的 nccl-tests 运行（第一张表之前有 %2 个 &quot;# nThread&quot; 表头，rank 0 列出了 %3 次）：这些运行同时写入了同一个文件，无法区分；请每次运行写入单独的文件，再分别导入</translation>
    </message>
    <message>
        <source>is %1, not alltoall or alltoallv; only all-to-all tests are imported</source>
        <translation>是 %1，不是 alltoall 或 alltoallv；只导入 all-to-all 测试</translation>
    </message>
    <message>
        <source>no nccl-tests data rows found</source>
        <translation>未找到 nccl-tests 数据行</translation>
    </message>
    <message>
        <source>the table ends without nccl-tests&apos; summary (&quot;# Avg bus bandwidth&quot;): the file looks truncated</source>
        <translation>表格结束时没有 nccl-tests 的汇总行（&quot;# Avg bus bandwidth&quot;）：文件似乎被截断了</translation>
    </message>
    <message>
        <source>is %1: a reduction (all_reduce, reduce or reduce_scatter), not alltoall; only all-to-all tests are imported</source>
        <translation>是 %1：这是归约操作（all_reduce、reduce 或 reduce_scatter），不是 alltoall；只导入 all-to-all 测试</translation>
    </message>
    <message>
        <source>is %1 for %2 bytes of %3 on %4 ranks; an alltoall prints size / (type size × ranks) = %5. The file does not name its test and this is not an all-to-all (all_reduce and broadcast print size / type size)</source>
        <translation>在 %4 个 rank 上、%3 类型 %2 字节时为 %1；alltoall 输出的应为 size / (类型大小 × rank 数) = %5。文件没有写明测试名称，而这不是 all-to-all（all_reduce 和 broadcast 输出 size / 类型大小）</translation>
    </message>
    <message>
        <source>is empty (a number was expected)</source>
        <translation>为空（此处应为数字）</translation>
    </message>
    <message>
        <source>is not finite (%1)</source>
        <translation>不是有限数（%1）</translation>
    </message>
    <message>
        <source>must be a whole number, got %1</source>
        <translation>必须是整数，实际为 %1</translation>
    </message>
    <message>
        <source>is out of range: %1</source>
        <translation>超出范围：%1</translation>
    </message>
    <message>
        <source>is &quot;%1&quot;; only alltoall reports are imported</source>
        <translation>为“%1”；只导入 alltoall 报告</translation>
    </message>
    <message>
        <source>%1 bytes per rank appears twice (also in %2)</source>
        <translation>每个 rank %1 字节出现了两次（%2 中也有）</translation>
    </message>
    <message>
        <source>samples_us is present here but missing in the first repeat</source>
        <translation>此处有 samples_us，但第一次重复中没有</translation>
    </message>
    <message>
        <source>samples_us is missing here but present in the first repeat</source>
        <translation>此处缺少 samples_us，但第一次重复中有</translation>
    </message>
    <message>
        <source>has %1 values but the result says %2 iterations</source>
        <translation>有 %1 个值，但结果中写的是 %2 次迭代</translation>
    </message>
    <message>
        <source>a protobuf field tag is cut off</source>
        <translation>protobuf 字段标签被截断</translation>
    </message>
    <message>
        <source>a protobuf field number 0</source>
        <translation>protobuf 字段编号为 0</translation>
    </message>
    <message>
        <source>a protobuf varint is cut off (field %1)</source>
        <translation>protobuf varint 被截断（字段 %1）</translation>
    </message>
    <message>
        <source>a protobuf 64-bit value is cut off (field %1)</source>
        <translation>protobuf 64 位值被截断（字段 %1）</translation>
    </message>
    <message>
        <source>a protobuf 32-bit value is cut off (field %1)</source>
        <translation>protobuf 32 位值被截断（字段 %1）</translation>
    </message>
    <message>
        <source>a protobuf length-delimited field runs past its message (field %1)</source>
        <translation>protobuf 长度前缀字段超出了所在消息的范围（字段 %1）</translation>
    </message>
    <message>
        <source>an unsupported protobuf wire type %1 (field %2)</source>
        <translation>不支持的 protobuf wire type %1（字段 %2）</translation>
    </message>
    <message>
        <source>must be an array of arrays</source>
        <translation>必须是由数组组成的数组</translation>
    </message>
    <message>
        <source>is absurd: %1 (1 to %2)</source>
        <translation>数值不合理：%1（应为 1 到 %2）</translation>
    </message>
    <message>
        <source>expert %1 is out of range</source>
        <translation>专家 %1 超出范围</translation>
    </message>
    <message>
        <source>must hold 0/1 or false/true, got %1</source>
        <translation>只能是 0/1 或 false/true，实际为 %1</translation>
    </message>
    <message>
        <source>is %1 but line %2 says %3</source>
        <translation>为 %1，但第 %2 行为 %3</translation>
    </message>
    <message>
        <source>must have the shape of topk (%1 tokens, %2 assignments), got %3 and %4</source>
        <translation>形状必须与 topk 相同（%1 个 token、%2 个分配），实际为 %3 和 %4</translation>
    </message>
    <message>
        <source>is absurd here: %1 (iteration, layer) pairs of %2 experts exceed %3 counts in one file</source>
        <translation>此处数值不合理：%1 个（迭代, 层）组合 × %2 个专家，超过单个文件 %3 个计数的上限</translation>
    </message>
    <message>
        <source>expert %1 is out of range: num_experts is %2</source>
        <translation>专家 %1 超出范围：num_experts 为 %2</translation>
    </message>
    <message>
        <source>no routing-trace lines found (the file is empty)</source>
        <translation>未找到路由轨迹行（文件为空）</translation>
    </message>
    <message>
        <source>truncated: the record header needs 12 bytes at offset %1, %2 left</source>
        <translation>被截断：偏移 %1 处的记录头需要 12 字节，只剩 %2 字节</translation>
    </message>
    <message>
        <source>the CRC-32C of the record length does not match at offset %1 (corrupt, or not a TFRecord file)</source>
        <translation>偏移 %1 处记录长度的 CRC-32C 不匹配（文件已损坏，或不是 TFRecord 文件）</translation>
    </message>
    <message>
        <source>truncated: the record at offset %1 says %2 bytes, %3 are left</source>
        <translation>被截断：偏移 %1 处的记录声明有 %2 字节，只剩 %3 字节</translation>
    </message>
    <message>
        <source>the CRC-32C of the record data does not match at offset %1 (corrupt)</source>
        <translation>偏移 %1 处记录数据的 CRC-32C 不匹配（文件已损坏）</translation>
    </message>
    <message>
        <source>has protobuf wire type %1, a varint (type 0) was expected</source>
        <translation>protobuf wire type 为 %1，应为 varint（type 0）</translation>
    </message>
    <message>
        <source>simple_value has protobuf wire type %1, a 32-bit float (type 5) was expected</source>
        <translation>simple_value 的 protobuf wire type 为 %1，应为 32 位浮点数（type 5）</translation>
    </message>
    <message>
        <source>a scalar without a tag</source>
        <translation>标量没有 tag</translation>
    </message>
    <message>
        <source>the tag gives no metric name</source>
        <translation>tag 中没有指标名</translation>
    </message>
    <message>
        <source>is not finite (%1) at step %2</source>
        <translation>第 %2 步的值不是有限数（%1）</translation>
    </message>
    <message>
        <source>is absurd: %1</source>
        <translation>数值不合理：%1</translation>
    </message>
    <message>
        <source>is absurd: %1 at step %2 (expected between %3 and %4)</source>
        <translation>数值不合理：第 %2 步为 %1（应在 %3 到 %4 之间）</translation>
    </message>
    <message>
        <source>no scalar summaries found in %1 records</source>
        <translation>在 %1 条记录中未找到标量摘要（scalar summary）</translation>
    </message>
    <message>
        <source>is %1 but the file name says rank %2</source>
        <translation>为 %1，但文件名表明是 rank %2</translation>
    </message>
    <message>
        <source>must be the string &quot;decoder&quot; or &quot;mtp&quot;</source>
        <translation>必须是字符串 &quot;decoder&quot; 或 &quot;mtp&quot;</translation>
    </message>
    <message>
        <source>must be &quot;decoder&quot; or &quot;mtp&quot;, not &quot;%1&quot;</source>
        <translation>必须是 &quot;decoder&quot; 或 &quot;mtp&quot;，而不是“%1”</translation>
    </message>
    <message>
        <source>is missing (block is &quot;mtp&quot;)</source>
        <translation>缺失（block 为 &quot;mtp&quot;）</translation>
    </message>
    <message>
        <source>is given but the block is &quot;decoder&quot; (mtp_idx belongs to MTP records)</source>
        <translation>已给出，但 block 为 &quot;decoder&quot;（mtp_idx 只属于 MTP 记录）</translation>
    </message>
    <message>
        <source>no nccl-tests header, Megatron, torchtitan or NeMo training line, CSV header or JSON object found</source>
        <translation>未找到 nccl-tests 表头、Megatron、torchtitan 或 NeMo 训练行、CSV 表头或 JSON 对象</translation>
    </message>
    <message>
        <source>is %1 but line %2 says %3 (one file is one rank&apos;s)</source>
        <translation>为 %1，但第 %2 行为 %3（一个文件只属于一个 rank）</translation>
    </message>
    <message>
        <source>must be a number (the top-k of the router); per-token expert lists are the routing-trace-jsonl format</source>
        <translation>必须是数字（路由器的 top-k）；按 token 列出专家列表的是 routing-trace-jsonl 格式</translation>
    </message>
    <message>
        <source>must be a string</source>
        <translation>必须是字符串</translation>
    </message>
    <message>
        <source>more than %1 different stages in one file</source>
        <translation>一个文件中出现了超过 %1 个不同的 stage</translation>
    </message>
    <message>
        <source>must be an array of arrays of expert indices, one per token</source>
        <translation>必须是由专家索引数组组成的数组，每个 token 一个</translation>
    </message>
    <message>
        <source>expert index %1 is absurd (at most %2)</source>
        <translation>专家索引 %1 不合理（最多 %2）</translation>
    </message>
    <message>
        <source>the line ends inside the array (truncated)</source>
        <translation>该行在数组内部结束（被截断）</translation>
    </message>
    <message>
        <source>has %1 rows but num_tokens is %2 (one row per token)</source>
        <translation>有 %1 行，但 num_tokens 为 %2（每个 token 一行）</translation>
    </message>
    <message>
        <source>row 0 has %1 expert indices but topk is %2</source>
        <translation>第 0 行有 %1 个专家索引，但 topk 为 %2</translation>
    </message>
    <message>
        <source>row %1 has %2 expert indices but topk is %3</source>
        <translation>第 %1 行有 %2 个专家索引，但 topk 为 %3</translation>
    </message>
    <message>
        <source>is absurd here: %1 (step, layer) blocks of %2 expert indices exceed %3 counts in one file</source>
        <translation>此处数值不合理：%1 个（步, 层）块 × %2 个专家索引，超过单个文件 %3 个计数的上限</translation>
    </message>
    <message>
        <source>is absurd: more than %1 assignments to expert %2</source>
        <translation>数值不合理：专家 %2 的分配超过 %1 次</translation>
    </message>
    <message>
        <source>no routing-trace records found (the file is empty)</source>
        <translation>未找到路由轨迹记录（文件为空）</translation>
    </message>
    <message>
        <source>no expert index in the file (every record has num_tokens 0)</source>
        <translation>文件中没有任何专家索引（每条记录的 num_tokens 都为 0）</translation>
    </message>
    <message>
        <source>does not start with size, count and a type name</source>
        <translation>不是以 size、count 和类型名开头</translation>
    </message>
    <message>
        <source>has %1 values, which is none of nccl-tests&apos; row layouts (11 or 12 values before 2.13; 13, 15 with -T, 21 with -I since)</source>
        <translation>有 %1 个值，不符合 nccl-tests 的任何一种行布局（2.13 之前为 11 或 12 个值；之后为 13 个，使用 -T 时 15 个，使用 -I 时 21 个）</translation>
    </message>
    <message>
        <source>a data row without nccl-tests&apos; column header, whose layout cannot be derived: it %1; paste the column header line (&quot;#  size  count  type ...&quot;) above the rows</source>
        <translation>数据行没有 nccl-tests 的列表头，且无法推断其布局：该行%1；请把列表头行（&quot;#  size  count  type ...&quot;）粘贴到数据行上方</translation>
    </message>
    <message>
        <source>has %1 values; the layout derived from line %2 (no column header was pasted) calls for %3 to %4</source>
        <translation>有 %1 个值；根据第 %2 行推断的布局（未粘贴列表头）要求 %3 到 %4 个</translation>
    </message>
    <message>
        <source>--collective %1: only alltoall and alltoallv tests are imported</source>
        <translation>--collective %1：只导入 alltoall 和 alltoallv 测试</translation>
    </message>
    <message>
        <source>--ranks %1, but the file lists %2 ranks</source>
        <translation>--ranks 为 %1，但文件列出了 %2 个 rank</translation>
    </message>
    <message>
        <source>is %1, but --collective says %2</source>
        <translation>为 %1，但 --collective 指定的是 %2</translation>
    </message>
    <message>
        <source>the pasted table does not name its test and its rows do not show the ranks; if it is alltoall_perf output, import it with --collective alltoall --ranks N (alltoallv_perf: --collective alltoallv --ranks N)</source>
        <translation>粘贴的表格没有写明测试名称，其数据行也看不出 rank 数；如果是 alltoall_perf 的输出，请用 --collective alltoall --ranks N 导入（alltoallv_perf：--collective alltoallv --ranks N）</translation>
    </message>
    <message>
        <source>the pasted table does not name its test (the &quot;# Collective test starting&quot; line is missing), and its rows read the same for alltoall and all_gather; if it is alltoall_perf output, import it with --collective alltoall (alltoallv_perf: --collective alltoallv)</source>
        <translation>粘贴的表格没有写明测试名称（缺少 &quot;# Collective test starting&quot; 行），而其数据行在 alltoall 和 all_gather 下并无区别；如果是 alltoall_perf 的输出，请用 --collective alltoall 导入（alltoallv_perf：--collective alltoallv）</translation>
    </message>
    <message>
        <source>is %1 for %2 bytes of %3</source>
        <translation>在 %3 类型 %2 字节时为 %1</translation>
    </message>
    <message>
        <source>%1: size / (count x %2) is no whole number of ranks, so this is no alltoall row</source>
        <translation>%1：size / (count x %2) 不是整数个 rank，因此这不是 alltoall 的数据行</translation>
    </message>
    <message>
        <source>%1: size / (count x %2) gives %3 ranks where the rows above give %4; one alltoall table has one number of ranks</source>
        <translation>%1：size / (count x %2) 得出 %3 个 rank，而上面的行得出 %4 个；一张 alltoall 表只能有一个 rank 数</translation>
    </message>
    <message>
        <source>the pasted table does not show the ranks and its type &quot;%1&quot; has no known size to derive them from; give --ranks N</source>
        <translation>粘贴的表格看不出 rank 数，且其类型“%1”的大小未知，无法据此推算；请指定 --ranks N</translation>
    </message>
    <message>
        <source>the pasted table does not show the ranks and has no row with a count to derive them from (size / (count x type size)); give --ranks N</source>
        <translation>粘贴的表格看不出 rank 数，也没有带 count 的行可用于推算（size / (count x 类型大小)）；请指定 --ranks N</translation>
    </message>
    <message>
        <source>is %1 for %2 bytes of %3 on %4 ranks (%6); an alltoall prints size / (type size × ranks) = %5</source>
        <translation>在 %4 个 rank（%6）上、%3 类型 %2 字节时为 %1；alltoall 输出的应为 size / (类型大小 × rank 数) = %5</translation>
    </message>
    <message>
        <source>the pasted %1 table does not show the ranks (no rank list) and alltoallv&apos;s rows do not give them; give --ranks N</source>
        <translation>粘贴的 %1 表格看不出 rank 数（没有 rank 列表），alltoallv 的数据行也无法推算出 rank 数；请指定 --ranks N</translation>
    </message>
    <message>
        <source>the line ends after &quot;|&quot; (truncated)</source>
        <translation>该行在 &quot;|&quot; 之后结束（被截断）</translation>
    </message>
    <message>
        <source>the line ends inside a field (truncated)</source>
        <translation>该行在字段内部结束（被截断）</translation>
    </message>
    <message>
        <source>the line ends after &quot;%1:&quot; (truncated)</source>
        <translation>该行在 &quot;%1:&quot; 之后结束（被截断）</translation>
    </message>
    <message>
        <source>the file ends inside this field, without a newline (truncated): &quot;%1&quot;</source>
        <translation>文件在该字段内部结束，没有换行符（被截断）：“%1”</translation>
    </message>
    <message>
        <source>appears twice on the line (&quot;%1&quot; and &quot;%2&quot;)</source>
        <translation>在该行中出现了两次（“%1”和“%2”）</translation>
    </message>
    <message>
        <source>a training line without fields (truncated?)</source>
        <translation>训练行没有字段（被截断？）</translation>
    </message>
    <message>
        <source>no NeMo progress lines (&quot;Training epoch E, iteration N/T | key: value&quot;) found</source>
        <translation>未找到 NeMo 进度行（&quot;Training epoch E, iteration N/T | key: value&quot;）</translation>
    </message>
    <message>
        <source>has %1 ranks but ep_size is %2</source>
        <translation>有 %1 个 rank，但 ep_size 为 %2</translation>
    </message>
    <message>
        <source>rank %1 is in two EP groups</source>
        <translation>rank %1 同时属于两个 EP 组</translation>
    </message>
    <message>
        <source>cover %1 of the %2 ranks</source>
        <translation>只覆盖了 %2 个 rank 中的 %1 个</translation>
    </message>
    <message>
        <source>is &quot;%1&quot;; this build reads moe-probe/1 and moe-probe/2</source>
        <translation>为“%1”；此版本只读取 moe-probe/1 和 moe-probe/2</translation>
    </message>
    <message>
        <source>a word without a value (&quot;key: value&quot; was expected)</source>
        <translation>有一个词没有值（应为 &quot;key: value&quot;）</translation>
    </message>
    <message>
        <source>the line ends after &quot;step:&quot; (truncated)</source>
        <translation>该行在 &quot;step:&quot; 之后结束（被截断）</translation>
    </message>
    <message>
        <source>is not &quot;&lt;GiB&gt;GiB(&lt;percent&gt;%)&quot;: &quot;%1&quot;</source>
        <translation>不是 &quot;&lt;GiB&gt;GiB(&lt;percent&gt;%)&quot; 格式：“%1”</translation>
    </message>
    <message>
        <source>is not &quot;(&lt;percent&gt;%)&quot; after the GiB (truncated?): &quot;%1&quot;</source>
        <translation>GiB 之后不是 &quot;(&lt;percent&gt;%)&quot;（被截断？）：“%1”</translation>
    </message>
    <message>
        <source>the line ends after &quot;%1: %2&quot; without its &quot;%3:&quot; field (truncated)</source>
        <translation>该行在 &quot;%1: %2&quot; 之后结束，缺少 &quot;%3:&quot; 字段（被截断）</translation>
    </message>
    <message>
        <source>the step line has no &quot;loss:&quot; field</source>
        <translation>该 step 行没有 &quot;loss:&quot; 字段</translation>
    </message>
    <message>
        <source>no torchtitan step lines (&quot;step: N  loss: X  …  mfu: …&quot;) found</source>
        <translation>未找到 torchtitan 的 step 行（&quot;step: N  loss: X  …  mfu: …&quot;）</translation>
    </message>
    <message>
        <source>the first column must be the chart&apos;s &quot;Step&quot; axis (a chart exported against time or another metric has no steps)</source>
        <translation>第一列必须是图表的 &quot;Step&quot; 轴（以时间或其他指标为横轴导出的图表没有步数）</translation>
    </message>
    <message>
        <source>is not a &quot;&lt;run&gt; - &lt;metric&gt;&quot; column of a W&amp;B chart export</source>
        <translation>不是 W&amp;B 图表导出中的 &quot;&lt;run&gt; - &lt;metric&gt;&quot; 列</translation>
    </message>
    <message>
        <source>the header names no &quot;&lt;run&gt; - &lt;metric&gt;&quot; column</source>
        <translation>表头中没有 &quot;&lt;run&gt; - &lt;metric&gt;&quot; 列</translation>
    </message>
    <message>
        <source>the file is empty (no header)</source>
        <translation>文件为空（没有表头）</translation>
    </message>
    <message>
        <source>holds %1 runs (%2); pick one with --wandb-run NAME</source>
        <translation>包含 %1 个运行（%2）；请用 --wandb-run NAME 选择其中一个</translation>
    </message>
    <message>
        <source>has no run &quot;%1&quot;; its runs: %2</source>
        <translation>没有运行“%1”；其中的运行：%2</translation>
    </message>
    <message>
        <source>gives no usable metric name (&quot;%1&quot;)</source>
        <translation>无法得出可用的指标名（“%1”）</translation>
    </message>
    <message>
        <source>is a second column for the metric %1</source>
        <translation>是指标 %1 的第二列</translation>
    </message>
    <message>
        <source>run &quot;%1&quot; has no metric column</source>
        <translation>运行“%1”没有指标列</translation>
    </message>
    <message>
        <source>step %1 appears twice</source>
        <translation>第 %1 步出现了两次</translation>
    </message>
    <message>
        <source>run &quot;%1&quot; has no values (%2 data rows)</source>
        <translation>运行“%1”没有任何值（%2 个数据行）</translation>
    </message>
    <message>
        <source>no run name given</source>
        <translation>未指定运行名称</translation>
    </message>
    <message>
        <source>has more than %1 fields</source>
        <translation>字段数超过 %1 个</translation>
    </message>
    <message>
        <source>field %1 is longer than %2 bytes</source>
        <translation>第 %1 个字段超过 %2 字节</translation>
    </message>
    <message>
        <source>%1 GiB</source>
        <translation>%1 GiB</translation>
    </message>
    <message>
        <source>%1 MiB</source>
        <translation>%1 MiB</translation>
    </message>
    <message numerus="yes">
        <source>%n byte(s)</source>
        <translation>
            <numerusform>%n 字节</numerusform>
        </translation>
    </message>
    <message>
        <source>is %1, over the import limit of %2; set MOEWB_IMPORT_MAX_BYTES to raise it (docs/formats.md, &quot;Memory&quot;)</source>
        <translation>大小为 %1，超过导入上限 %2；可设置 MOEWB_IMPORT_MAX_BYTES 提高上限（见 docs/formats.md 的“Memory”一节）</translation>
    </message>
    <message>
        <source>is over the import limit of %1; set MOEWB_IMPORT_MAX_BYTES to raise it (docs/formats.md, &quot;Memory&quot;)</source>
        <translation>超过导入上限 %1；可设置 MOEWB_IMPORT_MAX_BYTES 提高上限（见 docs/formats.md 的“Memory”一节）</translation>
    </message>
    <message>
        <source>ran out of memory importing it (%1); docs/formats.md, &quot;Memory&quot;, says how much each format needs</source>
        <translation>导入时内存不足（文件 %1）；各格式所需内存见 docs/formats.md 的“Memory”一节</translation>
    </message>
    <message>
        <source>is absurd: %1 ms (expected between 0 and %2)</source>
        <translation>数值不合理：%1 ms（应在 0 到 %2 之间）</translation>
    </message>
    <message>
        <source>a rank&apos;s time before any timer name (truncated block?)</source>
        <translation>在任何计时器名称之前出现了某个 rank 的时间（计时块被截断?）</translation>
    </message>
    <message>
        <source>is 0 µs for a message of %1 bytes: not a measured time</source>
        <translation>对 %1 字节的消息为 0 µs：这不是实测时间</translation>
    </message>
    <message>
        <source>is 0 µs for a message of %1 bytes per rank: not a measured time</source>
        <translation>对每个 rank %1 字节的消息为 0 µs：这不是实测时间</translation>
    </message>
    <message>
        <source>must be the string &quot;all&quot;</source>
        <translation>必须是字符串 &quot;all&quot;</translation>
    </message>
    <message>
        <source>must be &quot;all&quot;, not &quot;%1&quot;</source>
        <translation>必须是 &quot;all&quot;，而不是 &quot;%1&quot;</translation>
    </message>
    <message>
        <source>is &quot;all&quot; but line %1 has none: a file&apos;s lines count either all experts or the rank&apos;s local ones</source>
        <translation>为 &quot;all&quot;，但第 %1 行没有：一个文件的各行要么都计全部专家，要么都计该 rank 的本地专家</translation>
    </message>
    <message>
        <source>is missing but line %1 has &quot;all&quot;: a file&apos;s lines count either all experts or the rank&apos;s local ones</source>
        <translation>缺失，但第 %1 行为 &quot;all&quot;：一个文件的各行要么都计全部专家，要么都计该 rank 的本地专家</translation>
    </message>
    <message>
        <source>is %1, over the import limit of %2 (--max-bytes); give a larger --max-bytes to raise it (docs/formats.md, &quot;Memory&quot;)</source>
        <translation>大小为 %1，超过导入上限 %2（--max-bytes）；可给更大的 --max-bytes 提高上限（见 docs/formats.md 的“Memory”一节）</translation>
    </message>
    <message>
        <source>is over the import limit of %1 (--max-bytes); give a larger --max-bytes to raise it (docs/formats.md, &quot;Memory&quot;)</source>
        <translation>超过导入上限 %1（--max-bytes）；可给更大的 --max-bytes 提高上限（见 docs/formats.md 的“Memory”一节）</translation>
    </message>
    <message>
        <source>is %1 s: a time cannot be negative</source>
        <translation>为 %1 秒：时间不能为负</translation>
    </message>
    <message>
        <source>is absurd: %1 s (at most %2 s)</source>
        <translation>不合理：%1 秒（至多 %2 秒）</translation>
    </message>
    <message>
        <source>is missing (%1)</source>
        <translation>缺失（%1）</translation>
    </message>
    <message>
        <source>is missing: the first line of a collector sidecar is its header {&quot;format&quot;: &quot;%1&quot;, &quot;rank&quot;, &quot;world&quot;, …}</source>
        <translation>缺失：采集器旁路文件的第一行是其文件头 {&quot;format&quot;: &quot;%1&quot;, &quot;rank&quot;, &quot;world&quot;, …}</translation>
    </message>
    <message>
        <source>is &quot;%1&quot;; this version reads &quot;%2&quot;</source>
        <translation>为 &quot;%1&quot;；本版本读取 &quot;%2&quot;</translation>
    </message>
    <message>
        <source>the header names rank, world, framework, experts, topk, moe_layers, every and clock</source>
        <translation>文件头须给出 rank、world、framework、experts、topk、moe_layers、every 和 clock</translation>
    </message>
    <message>
        <source>is absurd: %1 (1 to %2 ranks)</source>
        <translation>不合理：%1（应为 1 到 %2 个 rank）</translation>
    </message>
    <message>
        <source>is %1, but world = %2 (ranks are 0 to world − 1)</source>
        <translation>为 %1，但 world = %2（rank 为 0 到 world − 1）</translation>
    </message>
    <message>
        <source>is &quot;%1&quot;; one of %2 was expected</source>
        <translation>为 &quot;%1&quot;；应为 %2 之一</translation>
    </message>
    <message>
        <source>is %1; 1 to experts = %2 was expected</source>
        <translation>为 %1；应为 1 到 experts = %2</translation>
    </message>
    <message>
        <source>a second header (the header is line %1; one file per rank)</source>
        <translation>第二个文件头（文件头在第 %1 行；每个 rank 一个文件）</translation>
    </message>
    <message>
        <source>is missing (&quot;drops&quot; or &quot;time&quot;)</source>
        <translation>缺失（&quot;drops&quot; 或 &quot;time&quot;）</translation>
    </message>
    <message>
        <source>is &quot;%1&quot;; &quot;drops&quot; or &quot;time&quot; was expected</source>
        <translation>为 &quot;%1&quot;；应为 &quot;drops&quot; 或 &quot;time&quot;</translation>
    </message>
    <message>
        <source>is %1, not a multiple of the header&apos;s every = %2</source>
        <translation>为 %1，不是文件头中 every = %2 的倍数</translation>
    </message>
    <message>
        <source>a drops line names step, layer, tokens, assignments, dropped_tokens and dropped_assignments</source>
        <translation>drops 行须给出 step、layer、tokens、assignments、dropped_tokens 和 dropped_assignments</translation>
    </message>
    <message>
        <source>is absurd: %1 (at most %2 tokens of one rank in one layer and step)</source>
        <translation>不合理：%1（一个 rank 在一层、一步中至多 %2 个 token）</translation>
    </message>
    <message>
        <source>is %1, but tokens × topk = %2 × %3 = %4</source>
        <translation>为 %1，但 tokens × topk = %2 × %3 = %4</translation>
    </message>
    <message>
        <source>is %1, more than tokens = %2</source>
        <translation>为 %1，超过 tokens = %2</translation>
    </message>
    <message>
        <source>is %1, more than assignments = %2</source>
        <translation>为 %1，超过 assignments = %2</translation>
    </message>
    <message>
        <source>is %1, fewer than dropped_tokens × topk = %2 × %3 = %4 (a dropped token lost all its assignments)</source>
        <translation>为 %1，少于 dropped_tokens × topk = %2 × %3 = %4（被丢弃的 token 失去了它的全部分配）</translation>
    </message>
    <message>
        <source>step %1 has more drops lines than the header&apos;s moe_layers = %2</source>
        <translation>第 %1 步的 drops 行多于文件头中的 moe_layers = %2</translation>
    </message>
    <message>
        <source>a time line names step, step_s, a2a_s and compute_s (null when not measured)</source>
        <translation>time 行须给出 step、step_s、a2a_s 和 compute_s（未测量时为 null）</translation>
    </message>
    <message>
        <source>is null; the step&apos;s wall time is always measured</source>
        <translation>为 null；每步的墙钟时间总是要测量的</translation>
    </message>
    <message>
        <source>is %1 s, less than a2a_s + compute_s = %2 s: the blocks cannot take longer than the step</source>
        <translation>为 %1 秒，小于 a2a_s + compute_s = %2 秒：各计时块不可能比整步更长</translation>
    </message>
    <message>
        <source>no header line (the file is empty)</source>
        <translation>没有文件头行（文件为空）</translation>
    </message>
    <message>
        <source>holds only the header: no step was written</source>
        <translation>只有文件头：没有写入任何一步</translation>
    </message>
    <message>
        <source>has more than %1 values</source>
        <translation>含有超过 %1 个数值</translation>
    </message>
    <message>
        <source>has changed since it was read for the plan (%1 rows of %2 experts then, %3 of %4 now): plan the import again</source>
        <translation>在生成导入计划后已被改动（当时 %1 行、每行 %2 个专家，现在 %3 行、每行 %4 个）：请重新生成导入计划</translation>
    </message>
    <message>
        <source>a second test (%1 on %2 ranks) after %3 on %4 ranks (line %5): the first is imported; import this one with --collective %1, or from its own file</source>
        <translation>第二个测试（%1，%2 个 rank）位于 %3（%4 个 rank，第 %5 行）之后：只导入第一个；要导入这一个，请加 --collective %1，或将其放在单独的文件中导入</translation>
    </message>
    <message>
        <source>a test not named</source>
        <translation>未命名的测试</translation>
    </message>
    <message>
        <source>the %1 test failed: &quot;%2&quot;</source>
        <translation>%1 测试失败：“%2”</translation>
    </message>
    <message>
        <source>failed at line %1: &quot;%2&quot;</source>
        <translation>在第 %1 行失败：“%2”</translation>
    </message>
    <message>
        <source>line %1: %2</source>
        <translation>第 %1 行：%2</translation>
    </message>
    <message>
        <source>%1 (lines %2-%3): %4</source>
        <translation>%1（第 %2-%3 行）：%4</translation>
    </message>
    <message>
        <source>no all-to-all test with data among the %1 tests of this log: %2</source>
        <translation>此日志的 %1 个测试中没有带数据的 all-to-all 测试：%2</translation>
    </message>
    <message numerus="yes">
        <source>%1 (and %n more damaged line(s); nothing usable remains)</source>
        <translation>
            <numerusform>%1（另有 %n 行损坏；没有可用的内容）</numerusform>
        </translation>
    </message>
    <message>
        <source>the iteration line does not end with &quot;|&quot;: cut inside a field, or another print glued on: &quot;%1&quot;</source>
        <translation>迭代行不以“|”结尾：在某个字段中间被截断，或后面粘上了另一段输出：“%1”</translation>
    </message>
    <message numerus="yes">
        <source>%n more: %1</source>
        <translation>
            <numerusform>另有 %n 项：%1</numerusform>
        </translation>
    </message>
    <message>
        <source>a folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <source>a FIFO (named pipe)</source>
        <translation>FIFO（命名管道）</translation>
    </message>
    <message>
        <source>a character device</source>
        <translation>字符设备</translation>
    </message>
    <message>
        <source>a block device</source>
        <translation>块设备</translation>
    </message>
    <message>
        <source>a socket</source>
        <translation>套接字</translation>
    </message>
    <message>
        <source>not a regular file</source>
        <translation>不是普通文件</translation>
    </message>
    <message>
        <source>is %1, not a regular file: moewb imports regular files only (save the stream to a file first)</source>
        <translation>是%1，不是普通文件：moewb 只导入普通文件（请先把数据流保存为文件）</translation>
    </message>
    <message>
        <source>no %1 field</source>
        <translation>没有 %1 字段</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a time and a rank (&quot;3453.08ms/8&quot;)</source>
        <translation>“%1”不是时间加秩的形式（应如“3453.08ms/8”）</translation>
    </message>
    <message>
        <source>is absurd: %1 ms</source>
        <translation>不合理：%1 毫秒</translation>
    </message>
    <message>
        <source>is absurd: the least round-trip time %1 ms is above the most, %2 ms</source>
        <translation>不合理：最短往返时间 %1 毫秒大于最长往返时间 %2 毫秒</translation>
    </message>
    <message>
        <source>alltoallv_perf&apos;s summary line names no mode=matrix or mode=generated: &quot;%1&quot;</source>
        <translation>alltoallv_perf 的汇总行没有 mode=matrix 或 mode=generated：&quot;%1&quot;</translation>
    </message>
    <message>
        <source>is missing from alltoallv_perf&apos;s summary line</source>
        <translation>在 alltoallv_perf 的汇总行中缺失</translation>
    </message>
    <message>
        <source>must not be negative</source>
        <translation>不能为负</translation>
    </message>
    <message>
        <source>is %1, fewer than the %2 ranks (alltoallv_perf refuses such a matrix)</source>
        <translation>为 %1，少于 %2 个 rank（alltoallv_perf 拒绝这样的矩阵）</translation>
    </message>
    <message>
        <source>an alltoallv_perf summary line without rank=</source>
        <translation>一行没有 rank= 的 alltoallv_perf 汇总行</translation>
    </message>
    <message>
        <source>is %1, past the %2 ranks of the summary on line %3</source>
        <translation>为 %1，超出第 %3 行汇总的 %2 个 rank</translation>
    </message>
    <message>
        <source>is %1 where alltoallv_perf prints rank %2 (its ranks in order)</source>
        <translation>为 %1，而 alltoallv_perf 此处应打印 rank %2（按顺序打印各 rank）</translation>
    </message>
    <message>
        <source>alltoallv_perf&apos;s summary lists %1 of its %2 ranks (nranks=%2): the row is cut</source>
        <translation>alltoallv_perf 的汇总只列出了 %2 个 rank 中的 %1 个（nranks=%2）：该行被截断</translation>
    </message>
    <message>
        <source>this summary differs from the one on line %1 for the same row: the lines of different rows are mixed</source>
        <translation>此汇总与同一行第 %1 行的汇总不同：不同数据行的内容混在了一起</translation>
    </message>
    <message>
        <source>is %1, but the alltoallv summary on line %2 gives the busiest rank %3 bytes (alltoallv_perf prints the largest send_bytes or recv_bytes as the size)</source>
        <translation>为 %1，但第 %2 行的 alltoallv 汇总给出最忙 rank 的 %3 字节（alltoallv_perf 把最大的 send_bytes 或 recv_bytes 打印为 size）</translation>
    </message>
    <message>
        <source>mode=%1 nranks=%2, but the first row&apos;s summary (line %3) says mode=%4 nranks=%5: one alltoallv_perf run has one</source>
        <translation>mode=%1 nranks=%2，但第一行的汇总（第 %3 行）为 mode=%4 nranks=%5：一次 alltoallv_perf 运行只有一种</translation>
    </message>
    <message>
        <source>rank %1 sends %2 and receives %3 bytes here, %4 and %5 in the first row&apos;s summary (line %6): one alltoallv_perf run sends one matrix</source>
        <translation>rank %1 在此发送 %2、接收 %3 字节，而第一行的汇总（第 %6 行）为 %4 和 %5：一次 alltoallv_perf 运行只发送一个矩阵</translation>
    </message>
    <message>
        <source>alltoallv_perf&apos;s summary lines in a %1 test</source>
        <translation>%1 测试中出现了 alltoallv_perf 的汇总行</translation>
    </message>
    <message>
        <source>prints no alltoallv summary, where the rows with one (from line %1) do: one alltoallv_perf run prints it for every row or for none</source>
        <translation>没有打印 alltoallv 汇总，而其他行（自第 %1 行起）有：一次 alltoallv_perf 运行要么每行都打印，要么都不打印</translation>
    </message>
    <message>
        <source>is %1, but the test has %2 ranks (%3)</source>
        <translation>为 %1，但该测试有 %2 个 rank（%3）</translation>
    </message>
    <message>
        <source>is 0: alltoallv_perf ran a traffic matrix (NCCL_TESTS_ALLTOALLV_MATRIX_FILE) and prints only its busiest rank&apos;s bytes as the size, not the bytes each rank sends; run it with NCCL_TESTS_ALLTOALLV_PRINT_SUMMARY=1, or give the matrix it read: --alltoallv-matrix FILE (and --alltoallv-scale S if NCCL_TESTS_ALLTOALLV_MATRIX_SCALE was set)</source>
        <translation>为 0：alltoallv_perf 运行的是流量矩阵（NCCL_TESTS_ALLTOALLV_MATRIX_FILE），只把最忙 rank 的字节数打印为 size，而不是每个 rank 发送的字节数；请用 NCCL_TESTS_ALLTOALLV_PRINT_SUMMARY=1 运行，或给出它读取的矩阵：--alltoallv-matrix FILE（若设置了 NCCL_TESTS_ALLTOALLV_MATRIX_SCALE，再加 --alltoallv-scale S）</translation>
    </message>
    <message>
        <source>is %1: alltoallv_perf ran its own pattern, not a traffic matrix, so --alltoallv-matrix does not apply</source>
        <translation>为 %1：alltoallv_perf 运行的是它自己生成的模式而不是流量矩阵，因此 --alltoallv-matrix 不适用</translation>
    </message>
    <message>
        <source>is %1: alltoallv_perf ran its generated pattern (no NCCL_TESTS_ALLTOALLV_MATRIX_FILE), so --alltoallv-matrix does not apply</source>
        <translation>为 %1：alltoallv_perf 运行的是生成的模式（没有 NCCL_TESTS_ALLTOALLV_MATRIX_FILE），因此 --alltoallv-matrix 不适用</translation>
    </message>
    <message>
        <source>rank %1 sends %2 and receives %3 bytes by this summary, %4 and %5 by the matrix %6 at scale %7: not the matrix this run read, or another NCCL_TESTS_ALLTOALLV_MATRIX_SCALE</source>
        <translation>按此汇总 rank %1 发送 %2、接收 %3 字节，按矩阵 %6（缩放 %7）为 %4 和 %5：不是这次运行读取的矩阵，或 NCCL_TESTS_ALLTOALLV_MATRIX_SCALE 不同</translation>
    </message>
    <message>
        <source>is %1, but the matrix %2 at scale %3 gives the busiest rank %4 bytes (the size alltoallv_perf prints): not the matrix this run read, or another NCCL_TESTS_ALLTOALLV_MATRIX_SCALE</source>
        <translation>为 %1，但矩阵 %2（缩放 %3）给出最忙 rank 的 %4 字节（alltoallv_perf 打印的 size）：不是这次运行读取的矩阵，或 NCCL_TESTS_ALLTOALLV_MATRIX_SCALE 不同</translation>
    </message>
    <message>
        <source>the value at row %1 col %2 is not a number (nan); alltoallv_perf takes it with undefined behaviour</source>
        <translation>第 %1 行第 %2 列的值不是数字（nan）；alltoallv_perf 对它的处理是未定义行为</translation>
    </message>
    <message>
        <source>a row split by alltoallv_perf&apos;s summary lines (NCCL_TESTS_ALLTOALLV_PRINT_SUMMARY) does not end: the file is cut or its lines are mixed</source>
        <translation>一行被 alltoallv_perf 的汇总行（NCCL_TESTS_ALLTOALLV_PRINT_SUMMARY）拆开后没有结束：文件被截断，或其中的行混在了一起</translation>
    </message>
    <message>
        <source>a Step Time line without &quot;GPU utilization:&quot; before its MODEL_TFLOP/s/GPU</source>
        <translation>Step Time 行在 MODEL_TFLOP/s/GPU 之前没有 &quot;GPU utilization:&quot;</translation>
    </message>
    <message>
        <source>is absurd: %1 s (expected between 0 and %2 s)</source>
        <translation>不合理：%1 s（应在 0 到 %2 s 之间）</translation>
    </message>
    <message numerus="yes">
        <source>only Megatron-Bridge &quot;Step Time&quot; lines (%n), no iteration line: they carry no iteration number to put their figures at</source>
        <translation>
            <numerusform>只有 Megatron-Bridge 的 &quot;Step Time&quot; 行（%n 行），没有 iteration 行：它们没有可供归属数值的迭代编号</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LayerLabel</name>
    <message>
        <source>MTP %1 · layer %2</source>
        <translation>MTP %1 · 第 %2 层</translation>
    </message>
    <message>
        <source>layer %1</source>
        <translation>第 %1 层</translation>
    </message>
</context>
<context>
    <name>Placement</name>
    <message>
        <source>the load matrix is empty (%1 layers × %2 experts)</source>
        <translation>负载矩阵为空（%1 层 × %2 个专家）</translation>
    </message>
    <message>
        <source>the load matrix has %1 values, not %2 layers × %3 experts</source>
        <translation>负载矩阵有 %1 个值，而不是 %2 层 × %3 个专家</translation>
    </message>
    <message>
        <source>the load matrix holds %1; loads must be finite and not negative</source>
        <translation>负载矩阵含有 %1;负载必须是有限且非负的数</translation>
    </message>
    <message>
        <source>replicas, groups, nodes and GPUs must be positive</source>
        <translation>副本数、分组数、节点数和 GPU 数都必须为正</translation>
    </message>
    <message>
        <source>the %1 experts do not divide into %2 groups</source>
        <translation>%1 个专家无法均分为 %2 组</translation>
    </message>
    <message>
        <source>%1 GPUs are not a multiple of %2 nodes</source>
        <translation>%1 个 GPU 不是 %2 个节点的整数倍</translation>
    </message>
    <message>
        <source>%1 replicas are not a multiple of %2 GPUs</source>
        <translation>%1 个副本不是 %2 个 GPU 的整数倍</translation>
    </message>
    <message>
        <source>%1 replicas are fewer than the %2 experts</source>
        <translation>%1 个副本少于 %2 个专家</translation>
    </message>
    <message>
        <source>%1 replicas over %2 nodes cannot hold %3 experts</source>
        <translation>分布在 %2 个节点上的 %1 个副本放不下 %3 个专家</translation>
    </message>
    <message>
        <source>experts (%1) and expert-parallel ranks (%2) must be positive</source>
        <translation>专家数（%1）和专家并行 rank 数（%2）都必须为正</translation>
    </message>
    <message>
        <source>%1 experts do not divide evenly over %2 expert-parallel ranks</source>
        <translation>%1 个专家无法均分到 %2 个专家并行 rank 上</translation>
    </message>
    <message>
        <source>%1 expert slots do not divide evenly over %2 ranks</source>
        <translation>%1 个专家槽位无法均分到 %2 个 rank 上</translation>
    </message>
    <message>
        <source>slot expert %1 is outside 0..%2</source>
        <translation>槽位中的专家 %1 超出 0..%2</translation>
    </message>
    <message>
        <source>expert %1 has no slot</source>
        <translation>专家 %1 没有槽位</translation>
    </message>
    <message>
        <source>%1: not a JSON object (%2 at byte %3)</source>
        <translation>%1:不是 JSON 对象（第 %3 字节处：%2）</translation>
    </message>
    <message>
        <source>%1: field &quot;num_gpus&quot; must be a positive integer</source>
        <translation>%1:字段 &quot;num_gpus&quot; 必须是正整数</translation>
    </message>
    <message>
        <source>%1: field &quot;phy2log&quot; must be a non-empty array of rows</source>
        <translation>%1:字段 &quot;phy2log&quot; 必须是非空的行数组</translation>
    </message>
    <message>
        <source>%1: phy2log[%2] must be an array of expert numbers</source>
        <translation>%1:phy2log[%2] 必须是专家编号数组</translation>
    </message>
    <message>
        <source>%1: phy2log[%2] holds a value that is not an expert number</source>
        <translation>%1:phy2log[%2] 含有不是专家编号的值</translation>
    </message>
    <message>
        <source>%1: phy2log[%2]: %3</source>
        <translation>%1:phy2log[%2]:%3</translation>
    </message>
    <message>
        <source>%1: field &quot;layers&quot; must list one layer number per phy2log row</source>
        <translation>%1:字段 &quot;layers&quot; 必须为 phy2log 的每一行列出一个层号</translation>
    </message>
    <message>
        <source>%1: field &quot;layers&quot; holds a value that is not a layer number</source>
        <translation>%1:字段 &quot;layers&quot; 含有不是层号的值</translation>
    </message>
    <message>
        <source>%1: cannot be read: %2</source>
        <translation>%1:无法读取：%2</translation>
    </message>
    <message>
        <source>%1: larger than 256 MiB</source>
        <translation>%1:大于 256 MiB</translation>
    </message>
    <message>
        <source>the placement has no ranks or no expert slots</source>
        <translation>该放置方案没有 rank 或没有专家槽位</translation>
    </message>
    <message>
        <source>tokens per rank, hidden size, bytes per element and top-k must be positive</source>
        <translation>每个 rank 的 token 数、隐藏维度、每元素字节数和 top-k 都必须为正</translation>
    </message>
    <message>
        <source>top-k %1 is larger than the %2 experts</source>
        <translation>top-k %1 大于专家数 %2</translation>
    </message>
    <message>
        <source>%1 expert counts for a placement of %2 experts</source>
        <translation>有 %1 个专家计数，但放置方案有 %2 个专家</translation>
    </message>
    <message>
        <source>an expert count is negative or not finite</source>
        <translation>某个专家计数为负或不是有限数</translation>
    </message>
    <message>
        <source>the expert counts are all zero: no routing to model</source>
        <translation>专家计数全为零：没有可建模的路由</translation>
    </message>
    <message>
        <source>%1 expert choices are not whole tokens of top-k %2</source>
        <translation>%1 个专家选择凑不成 top-k %2 的完整 token</translation>
    </message>
    <message>
        <source>token %1 chooses expert %2, outside 0..%3</source>
        <translation>token %1 选择了专家 %2,超出 0..%3</translation>
    </message>
    <message>
        <source>--steps &quot;%1&quot; is not a step range (A-B, A-, -B or one step)</source>
        <translation>--steps &quot;%1&quot; 不是步数范围（A-B、A-、-B 或单个步数）</translation>
    </message>
    <message>
        <source>step %1, layer %2 has %3 experts, earlier blocks %4</source>
        <translation>第 %1 步第 %2 层有 %3 个专家，之前的数据块为 %4 个</translation>
    </message>
    <message>
        <source>no expert load in the chosen steps</source>
        <translation>所选步数内没有专家负载</translation>
    </message>
    <message>
        <source>GPUs, nodes and groups must be positive and redundant slots not negative</source>
        <translation>GPU 数、节点数和专家组数必须为正，冗余槽位数不能为负</translation>
    </message>
    <message>
        <source>no expert load to place</source>
        <translation>没有可放置的专家负载</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message numerus="yes">
        <source>%1 (and %n more part(s) of its expert load)</source>
        <translation>
            <numerusform>%1（其专家负载另有 %n 处）</numerusform>
        </translation>
    </message>
    <message>
        <source>the bytes per rank must be a positive multiple of 16 (alltoallv_perf rounds every value down to 16 bytes), not %1</source>
        <translation>每个 rank 的字节数必须是 16 的正整数倍（alltoallv_perf 会把每个值向下取整到 16 字节），而不是 %1</translation>
    </message>
    <message>
        <source>the matrix moves no bytes</source>
        <translation>该矩阵不传输任何字节</translation>
    </message>
</context>
<context>
    <name>Plots</name>
    <message>
        <source>? nodes</source>
        <translation>? 个节点</translation>
    </message>
    <message>
        <source>1 node</source>
        <translation>1 个节点</translation>
    </message>
    <message>
        <source>%1 nodes</source>
        <translation>%1 个节点</translation>
    </message>
    <message>
        <source>tokens</source>
        <translation>token 数</translation>
    </message>
    <message>
        <source>tokens/s</source>
        <translation>tokens/s</translation>
    </message>
    <message>
        <source>n/a</source>
        <translation>无</translation>
    </message>
    <message>
        <source>%1 tokens</source>
        <translation>%1 个 token</translation>
    </message>
    <message>
        <source>%1 tokens/s</source>
        <translation>%1 tokens/s</translation>
    </message>
    <message>
        <source>All-to-all bandwidth vs message size</source>
        <translation>all-to-all 带宽与消息大小</translation>
    </message>
    <message>
        <source>Message size per rank</source>
        <translation>每个 rank 的消息大小</translation>
    </message>
    <message>
        <source>Effective bandwidth</source>
        <translation>有效带宽</translation>
    </message>
    <message>
        <source>All-to-all time vs message size (median solid, P99 dashed)</source>
        <translation>all-to-all 耗时与消息大小（实线为中位数，虚线为 P99）</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>耗时</translation>
    </message>
    <message>
        <source>%1 · median</source>
        <translation>%1 · 中位数</translation>
    </message>
    <message>
        <source>%1 · P99</source>
        <translation>%1 · P99</translation>
    </message>
    <message>
        <source> (algbw)</source>
        <translation>（algbw）</translation>
    </message>
    <message>
        <source>World size unknown for %1: algbw (bytes ÷ median) shown instead.</source>
        <translation>%1 的 world size 未知：改为显示 algbw（字节数 ÷ 中位耗时）。</translation>
    </message>
    <message>
        <source>Median over all samples of a size; P99 by linear interpolation.</source>
        <translation>中位数取同一大小的全部样本；P99 用线性插值计算。</translation>
    </message>
    <message>
        <source>Loss vs tokens</source>
        <translation>损失与 token 数</translation>
    </message>
    <message>
        <source>Loss vs step</source>
        <translation>损失与步数</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>token 数</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>%1 · lm_loss (raw)</source>
        <translation>%1 · lm_loss（原始）</translation>
    </message>
    <message>
        <source>%1 · lm_loss</source>
        <translation>%1 · lm_loss</translation>
    </message>
    <message>
        <source>%1 · val_loss</source>
        <translation>%1 · val_loss</translation>
    </message>
    <message>
        <source>lm_loss smoothed with a debiased EMA, smoothing %1 (raw curve faint); val_loss dashed.</source>
        <translation>lm_loss 经去偏 EMA 平滑，平滑系数 %1（原始曲线为浅色）；val_loss 为虚线。</translation>
    </message>
    <message>
        <source>lm_loss raw (smoothing 0); val_loss dashed.</source>
        <translation>lm_loss 为原始值（平滑系数 0）；val_loss 为虚线。</translation>
    </message>
    <message>
        <source>Steady throughput per GPU</source>
        <translation>稳定阶段的单 GPU 吞吐量</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Mean tokens/s per GPU over the steady phase.</source>
        <translation>稳定阶段每个 GPU 的平均 tokens/s。</translation>
    </message>
    <message>
        <source>Derived from elapsed time per iteration: %1.</source>
        <translation>由每次迭代的耗时推算：%1。</translation>
    </message>
    <message>
        <source>No throughput: %1.</source>
        <translation>无吞吐量：%1。</translation>
    </message>
    <message>
        <source>Worst-layer load ratio over steps</source>
        <translation>最差层的负载比随步数变化</translation>
    </message>
    <message>
        <source>Load max/mean</source>
        <translation>负载 max/mean</translation>
    </message>
    <message>
        <source>limit %1</source>
        <translation>上限 %1</translation>
    </message>
    <message>
        <source>Per step the largest max/mean expert load over layers; 1 = perfectly balanced; limit %1 (stage3.load_ratio_max).</source>
        <translation>每步取各层专家负载 max/mean 的最大值；1 表示完全均衡；上限 %1（stage3.load_ratio_max）。</translation>
    </message>
    <message>
        <source>Expert load by layer at step %1 · %2</source>
        <translation>第 %1 步各层的专家负载 · %2</translation>
    </message>
    <message>
        <source>Expert</source>
        <translation>专家</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>No expert load at step %1.</source>
        <translation>第 %1 步没有专家负载。</translation>
    </message>
    <message>
        <source>× mean</source>
        <translation>× 均值</translation>
    </message>
    <message>
        <source>Tokens routed to each expert ÷ the layer&apos;s mean; 1 = balanced.</source>
        <translation>路由到每个专家的 token 数 ÷ 该层均值；1 表示均衡。</translation>
    </message>
    <message>
        <source>Tokens routed to each expert at step %1.</source>
        <translation>第 %1 步路由到每个专家的 token 数。</translation>
    </message>
    <message>
        <source>Expert load over steps, layer %1 · %2</source>
        <translation>专家负载随步数变化，第 %1 层 · %2</translation>
    </message>
    <message>
        <source>No expert load for layer %1.</source>
        <translation>第 %1 层没有专家负载。</translation>
    </message>
    <message>
        <source>Tokens per expert ÷ the step&apos;s mean over experts.</source>
        <translation>每个专家的 token 数 ÷ 该步所有专家的均值。</translation>
    </message>
    <message>
        <source>Tokens routed to each expert per step.</source>
        <translation>每步路由到每个专家的 token 数。</translation>
    </message>
    <message>
        <source>%1 steps max-pooled into %2 columns (about %3 steps each).</source>
        <translation>%1 步按最大值池化为 %2 列（每列约 %3 步）。</translation>
    </message>
    <message>
        <source>Token drop rate vs loss</source>
        <translation>token 丢弃率与损失</translation>
    </message>
    <message>
        <source>Drop rate</source>
        <translation>丢弃率</translation>
    </message>
    <message>
        <source>Window loss</source>
        <translation>窗口损失</translation>
    </message>
    <message>
        <source>runs (colour: capacity factor)</source>
        <translation>运行（颜色：容量因子）</translation>
    </message>
    <message>
        <source>capacity factor</source>
        <translation>容量因子</translation>
    </message>
    <message>
        <source>One point per run: drop rate and mean lm_loss over the gate&apos;s window; colour = capacity factor.</source>
        <translation>每个点代表一个运行：阶段判定窗口内的丢弃率与平均 lm_loss；颜色表示容量因子。</translation>
    </message>
    <message>
        <source>Dropless (no capacity limit, capacity factor shown as 0, drop rate 0): %1.</source>
        <translation>无丢弃（无容量上限，容量因子显示为 0，丢弃率为 0）：%1。</translation>
    </message>
    <message>
        <source>Capacity factor not recorded: %1.</source>
        <translation>未记录容量因子：%1。</translation>
    </message>
    <message>
        <source>Without drop rate or loss: %1.</source>
        <translation>缺少丢弃率或损失：%1。</translation>
    </message>
    <message>
        <source>Busiest device&apos;s share of routed tokens</source>
        <translation>最忙设备的路由 token 占比</translation>
    </message>
    <message>
        <source>Busiest-device share</source>
        <translation>最忙设备占比</translation>
    </message>
    <message>
        <source>%1 1/%2 = %3 %</source>
        <translation>%1 1/%2 = %3 %</translation>
    </message>
    <message>
        <source>Ideal share 1/EP: %1.</source>
        <translation>理想占比 1/EP：%1。</translation>
    </message>
    <message>
        <source>EP unknown</source>
        <translation>EP 未知</translation>
    </message>
    <message>
        <source>Estimated from expert placement: %1.</source>
        <translation>根据专家放置估算：%1。</translation>
    </message>
    <message>
        <source>No share: %1.</source>
        <translation>无占比：%1。</translation>
    </message>
    <message>
        <source>Source vs target cluster bandwidth</source>
        <translation>源集群与目标集群的带宽</translation>
    </message>
    <message>
        <source>source · %1</source>
        <translation>源 · %1</translation>
    </message>
    <message>
        <source>target · %1</source>
        <translation>目标 · %1</translation>
    </message>
    <message>
        <source>Target ÷ source bandwidth per size</source>
        <translation>各消息大小下目标与源的带宽之比</translation>
    </message>
    <message>
        <source>Target ÷ source</source>
        <translation>目标 ÷ 源</translation>
    </message>
    <message>
        <source>%1 ÷ %2</source>
        <translation>%1 ÷ %2</translation>
    </message>
    <message>
        <source>band %1</source>
        <translation>边界 %1</translation>
    </message>
    <message>
        <source>Pass band %1 to %2 (stage4.baseline_diff_max = %3); sizes outside stop.</source>
        <translation>通过区间 %1 到 %2（stage4.baseline_diff_max = %3）；区间外的大小判为停止。</translation>
    </message>
    <message>
        <source>1 = the same bandwidth on both clusters.</source>
        <translation>1 表示两个集群带宽相同。</translation>
    </message>
    <message>
        <source>A world size is unknown: algbw (bytes ÷ median) compared instead of the effective bandwidth.</source>
        <translation>有集群的 world size 未知：改为比较 algbw（字节数 ÷ 中位耗时），而非有效带宽。</translation>
    </message>
    <message>
        <source>Effective bandwidth = bytes per rank × (n−1)/n ÷ median time.</source>
        <translation>有效带宽 = 每个 rank 的字节数 × (n−1)/n ÷ 中位耗时。</translation>
    </message>
    <message>
        <source>Sizes measured on one side only, not shown: %1.</source>
        <translation>只在一侧测量、未显示的大小：%1。</translation>
    </message>
    <message>
        <source>Effective bandwidth = bytes per rank × (n−1)/n ÷ median time; one colour per run.</source>
        <translation>有效带宽 = 每个 rank 的字节数 × (n−1)/n ÷ 中位耗时；每个运行一种颜色。</translation>
    </message>
    <message>
        <source>compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>all-to-all transfer</source>
        <translation>all-to-all 传输</translation>
    </message>
    <message>
        <source>all-to-all waiting</source>
        <translation>all-to-all 等待</translation>
    </message>
    <message>
        <source>other communication</source>
        <translation>其他通信</translation>
    </message>
    <message>
        <source>other communication waiting</source>
        <translation>其他通信等待</translation>
    </message>
    <message>
        <source>memcpy</source>
        <translation>memcpy（内存拷贝）</translation>
    </message>
    <message>
        <source>idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>Where step %1&apos;s time went, per rank (busiest: rank %2) · %3</source>
        <translation>第 %1 步各 rank 的时间去向（最忙：rank %2）· %3</translation>
    </message>
    <message>
        <source>Where step %1&apos;s time went, per rank · %2</source>
        <translation>第 %1 步各 rank 的时间去向 · %2</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>进程（rank）</translation>
    </message>
    <message>
        <source>No step anatomy at step %1.</source>
        <translation>第 %1 步没有步骤剖析数据。</translation>
    </message>
    <message>
        <source>step time</source>
        <translation>步时间</translation>
    </message>
    <message>
        <source>Each kind&apos;s own time on the rank in step %1; communication that overlaps compute counts in both, so a bar can reach above the rank&apos;s step time (dashed).</source>
        <translation>第 %1 步中该 rank 上每类活动各自的时间；与计算重叠的通信在两者中都计入，所以柱子可能高于该 rank 的步时间（虚线）。</translation>
    </message>
    <message>
        <source>Busiest rank %1: the largest busy time (compute and communication, without the waiting).</source>
        <translation>最忙 rank %1：忙碌时间（计算与通信，不含等待）最长。</translation>
    </message>
    <message>
        <source>Busy share of each rank&apos;s step · %1</source>
        <translation>各 rank 每步的忙碌占比 · %1</translation>
    </message>
    <message>
        <source>No step anatomy.</source>
        <translation>没有步骤剖析数据。</translation>
    </message>
    <message>
        <source>% of the step busy</source>
        <translation>忙碌占步时间 %</translation>
    </message>
    <message>
        <source>Busy time (compute and communication, without the waiting) ÷ the rank&apos;s step time; grey: not traced.</source>
        <translation>忙碌时间（计算与通信，不含等待）÷ 该 rank 的步时间；灰色：未追踪。</translation>
    </message>
    <message>
        <source>Steps %1–%2 max-pooled into %3 columns (about %4 steps each): a straggling step stays visible.</source>
        <translation>第 %1–%2 步按最大值汇聚为 %3 列（每列约 %4 步）：拖慢的那一步仍然可见。</translation>
    </message>
    <message>
        <source>%1
busiest</source>
        <translation>%1
最忙</translation>
    </message>
    <message>
        <source>Ranks %1 to %2: too many to draw.</source>
        <translation>秩 %1 至 %2：太多，无法绘制。</translation>
    </message>
    <message>
        <source>Layers %1 to %2 × %3 experts: too many cells to draw.</source>
        <translation>第 %1 至 %2 层 × %3 个专家：单元格太多，无法绘制。</translation>
    </message>
    <message>
        <source>Loss at the end of training (last %1 %, zoomed)</source>
        <translation>训练末段的损失（最后 %1 %，放大）</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>第 %1 步</translation>
    </message>
    <message>
        <source>No run logged a validation loss.</source>
        <translation>没有运行记录验证损失。</translation>
    </message>
    <message>
        <source>Last validation loss (at %1): %2.</source>
        <translation>最后的验证损失（于 %1）：%2。</translation>
    </message>
    <message>
        <source>%1 (at %2)</source>
        <translation>%1（于 %2）</translation>
    </message>
    <message>
        <source>Last validation loss: %1.</source>
        <translation>最后的验证损失：%1。</translation>
    </message>
    <message>
        <source>Throughput</source>
        <translation>吞吐量</translation>
    </message>
    <message>
        <source>%1 warm-up steps excluded, %2 counted</source>
        <translation>排除 %1 个预热步，计入 %2 步</translation>
    </message>
    <message>
        <source>Each run: %1.</source>
        <translation>每个运行：%1。</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
</context>
<context>
    <name>RankGrid</name>
    <message>
        <source>must be names out of tp, cp, ep, dp, pp joined by &apos;-&apos; (e.g. &quot;tp-cp-ep-dp-pp&quot;), got &quot;%1&quot;</source>
        <translation>必须是用 &apos;-&apos; 连接的 tp、cp、ep、dp、pp 名称（如 &quot;tp-cp-ep-dp-pp&quot;），实际为“%1”</translation>
    </message>
    <message>
        <source>names %1 twice in &quot;%2&quot;</source>
        <translation>在“%2”中两次出现 %1</translation>
    </message>
    <message>
        <source>the %1 size must be at least 1, got %2</source>
        <translation>%1 规模至少为 1，实际为 %2</translation>
    </message>
    <message>
        <source>parallelism.order &quot;%1&quot; leaves out %2, whose size is %3 (only names of size 1 may be left out)</source>
        <translation>parallelism.order“%1”中缺少 %2，而其规模为 %3（只有规模为 1 的名称才能省略）</translation>
    </message>
    <message>
        <source>the record&apos;s parallelism.dp, tp and pp are needed to map ranks to experts</source>
        <translation>需要配置记录中的 parallelism.dp、tp 和 pp 才能把 rank 映射到专家</translation>
    </message>
    <message>
        <source>expert tensor-parallel × expert-parallel × pipeline-parallel (%1 × %2 × %3) does not divide the world size %4</source>
        <translation>专家张量并行 × 专家并行 × 流水线并行（%1 × %2 × %3）不能整除 world size %4</translation>
    </message>
    <message>
        <source>the record&apos;s parallelism.dp, tp and pp are needed to map ranks to pipeline stages</source>
        <translation>需要配置记录中的 parallelism.dp、tp 和 pp 才能把 rank 映射到流水线阶段</translation>
    </message>
</context>
<context>
    <name>RecordFields</name>
    <message>
        <source>how many nodes the run used (e.g. 8)</source>
        <translation>运行使用的节点数（如 8）</translation>
    </message>
    <message>
        <source>how many accelerators (GPUs) each node has (e.g. 8)</source>
        <translation>每个节点的加速卡（GPU）数量（如 8）</translation>
    </message>
    <message>
        <source>the accelerator model (e.g. &quot;H100 SXM5 80GB&quot;)</source>
        <translation>加速卡型号（如 &quot;H100 SXM5 80GB&quot;）</translation>
    </message>
    <message>
        <source>the network type (e.g. &quot;NVLink+IB NDR&quot;, &quot;RoCE&quot;, &quot;Ethernet&quot;)</source>
        <translation>网络类型（如 &quot;NVLink+IB NDR&quot;、&quot;RoCE&quot;、&quot;Ethernet&quot;）</translation>
    </message>
    <message>
        <source>the topology in words (e.g. &quot;two-level fat tree, 8 rails&quot;)</source>
        <translation>用文字描述的拓扑（如 &quot;two-level fat tree, 8 rails&quot;）</translation>
    </message>
    <message>
        <source>the link between accelerators inside a node (e.g. &quot;NVLink 4 via NVSwitch&quot;)</source>
        <translation>节点内加速卡之间的互连（如 &quot;NVLink 4 via NVSwitch&quot;）</translation>
    </message>
    <message>
        <source>the fabric between nodes (e.g. &quot;InfiniBand NDR 400G x8&quot;; &quot;none&quot; for one node)</source>
        <translation>节点之间的网络（如 &quot;InfiniBand NDR 400G x8&quot;；单节点填 &quot;none&quot;）</translation>
    </message>
    <message>
        <source>whether the inter-node network is rail-optimized (true or false)</source>
        <translation>节点间网络是否做了 rail 优化（true 或 false）</translation>
    </message>
    <message>
        <source>how many routed experts each MoE layer has (e.g. 64)</source>
        <translation>每个 MoE 层的路由专家数（如 64）</translation>
    </message>
    <message>
        <source>shared experts every token passes through (default 0)</source>
        <translation>每个 token 都会经过的共享专家数（默认 0）</translation>
    </message>
    <message>
        <source>how many experts each token is routed to (e.g. 2)</source>
        <translation>每个 token 路由到的专家数（如 2）</translation>
    </message>
    <message>
        <source>the capacity factor (e.g. 1.25), or &quot;none&quot; when experts have no capacity limit</source>
        <translation>容量因子（如 1.25）；专家没有容量上限时填 &quot;none&quot;</translation>
    </message>
    <message>
        <source>what happens to tokens over an expert&apos;s capacity: drop, reroute, residual or dropless</source>
        <translation>超出专家容量的 token 如何处理：drop、reroute、residual 或 dropless</translation>
    </message>
    <message>
        <source>which tokens overflow first: lowest_probability or position</source>
        <translation>哪些 token 先溢出：lowest_probability 或 position</translation>
    </message>
    <message>
        <source>the load-balancing method: aux_loss, seq_aux_loss, aux_loss_free_bias, sinkhorn, expert_choice or none</source>
        <translation>负载均衡方法：aux_loss、seq_aux_loss、aux_loss_free_bias、sinkhorn、expert_choice 或 none</translation>
    </message>
    <message>
        <source>the auxiliary-loss coefficient (e.g. 0.01)</source>
        <translation>辅助损失系数（如 0.01）</translation>
    </message>
    <message>
        <source>the bias update rate of aux-loss-free balancing (e.g. 0.001)</source>
        <translation>无辅助损失均衡的偏置更新率（如 0.001）</translation>
    </message>
    <message>
        <source>the router&apos;s score function: softmax or sigmoid</source>
        <translation>路由器的打分函数：softmax 或 sigmoid</translation>
    </message>
    <message>
        <source>&quot;moe&quot;, or &quot;dense&quot; for a dense control model</source>
        <translation>&quot;moe&quot;；稠密对照模型填 &quot;dense&quot;</translation>
    </message>
    <message>
        <source>all parameters, every expert and the embeddings included (e.g. 16000000000)</source>
        <translation>总参数量，包括全部专家和嵌入层（如 16000000000）</translation>
    </message>
    <message>
        <source>the parameters one token passes through (e.g. 2800000000)</source>
        <translation>每个 token 经过的参数量，即激活参数量（如 2800000000）</translation>
    </message>
    <message>
        <source>how many transformer layers the model has (e.g. 28)</source>
        <translation>模型的 Transformer 层数（如 28）</translation>
    </message>
    <message>
        <source>how many layers have an MoE FFN (e.g. 27; 0 for a dense model)</source>
        <translation>含 MoE FFN 的层数（如 27；稠密模型填 0）</translation>
    </message>
    <message>
        <source>the model&apos;s hidden size (e.g. 2048)</source>
        <translation>模型的隐藏维度（如 2048）</translation>
    </message>
    <message>
        <source>the FFN hidden size of one expert, or of the FFN for a dense model (e.g. 1408)</source>
        <translation>单个专家的 FFN 隐藏维度；稠密模型填其 FFN 的隐藏维度（如 1408）</translation>
    </message>
    <message>
        <source>the data-parallel size (e.g. 16)</source>
        <translation>数据并行规模（如 16）</translation>
    </message>
    <message>
        <source>the tensor-parallel size (e.g. 2)</source>
        <translation>张量并行规模（如 2）</translation>
    </message>
    <message>
        <source>the pipeline-parallel size (e.g. 2)</source>
        <translation>流水线并行规模（如 2）</translation>
    </message>
    <message>
        <source>the expert-parallel size (e.g. 8)</source>
        <translation>专家并行规模（如 8）</translation>
    </message>
    <message>
        <source>the context-parallel size (default 1)</source>
        <translation>上下文并行规模（默认 1）</translation>
    </message>
    <message>
        <source>the tokens in one optimizer step across all data-parallel ranks (e.g. 4194304)</source>
        <translation>所有数据并行 rank 上一个优化器步的 token 数（如 4194304）</translation>
    </message>
    <message>
        <source>the sequence length in tokens (e.g. 4096)</source>
        <translation>序列长度，以 token 计（如 4096）</translation>
    </message>
    <message>
        <source>whether the throughput timing includes data loading (true or false)</source>
        <translation>吞吐量计时是否包含数据加载（true 或 false）</translation>
    </message>
    <message>
        <source>how many warm-up steps are left out of the throughput statistics (e.g. 10; 0 for none)</source>
        <translation>吞吐量统计中排除的预热步数（如 10；不排除填 0）</translation>
    </message>
    <message>
        <source>the optimizer and its settings (e.g. &quot;AdamW beta1=0.9 beta2=0.95 wd=0.1&quot;)</source>
        <translation>优化器及其设置（如 &quot;AdamW beta1=0.9 beta2=0.95 wd=0.1&quot;）</translation>
    </message>
    <message>
        <source>the learning-rate schedule (e.g. &quot;cosine, peak 3e-4, 2000 warm-up steps&quot;)</source>
        <translation>学习率调度（如 &quot;cosine, peak 3e-4, 2000 warm-up steps&quot;）</translation>
    </message>
    <message>
        <source>how many tokens were trained in total (e.g. 100000000000)</source>
        <translation>训练的总 token 数（如 100000000000）</translation>
    </message>
    <message>
        <source>the identifier of the validation set (e.g. &quot;pile-val-v1&quot;)</source>
        <translation>验证集的标识（如 &quot;pile-val-v1&quot;）</translation>
    </message>
    <message>
        <source>a positive integer</source>
        <translation>正整数</translation>
    </message>
    <message>
        <source>an integer of 0 or more</source>
        <translation>大于或等于 0 的整数</translation>
    </message>
    <message>
        <source>a positive number</source>
        <translation>正数</translation>
    </message>
    <message>
        <source>a positive number or &quot;none&quot;</source>
        <translation>正数或 &quot;none&quot;</translation>
    </message>
    <message>
        <source>true or false</source>
        <translation>true 或 false</translation>
    </message>
    <message>
        <source>a non-empty string</source>
        <translation>非空字符串</translation>
    </message>
    <message>
        <source>one of %1</source>
        <translation>以下之一：%1</translation>
    </message>
    <message>
        <source>the expert tensor-parallel size (default: parallelism.tp)</source>
        <translation>专家张量并行规模（默认：parallelism.tp）</translation>
    </message>
    <message>
        <source>Megatron-Core&apos;s rank order, first varies fastest (default &quot;tp-cp-ep-dp-pp&quot;)</source>
        <translation>Megatron-Core 的 rank 排列顺序，第一个维度变化最快（默认 &quot;tp-cp-ep-dp-pp&quot;）</translation>
    </message>
</context>
<context>
    <name>RecordJson</name>
    <message>
        <source>line 1, column 1: the file is empty; a config record is a JSON object</source>
        <translation>第 1 行第 1 列：文件为空；配置记录应为一个 JSON 对象</translation>
    </message>
    <message>
        <source>line %1, column %2: %3</source>
        <translation>第 %1 行第 %2 列：%3</translation>
    </message>
    <message>
        <source>a config record must be a JSON object, got %1</source>
        <translation>配置记录必须是 JSON 对象，实际为 %1</translation>
    </message>
    <message>
        <source>the record</source>
        <translation>记录</translation>
    </message>
    <message>
        <source>line %1: key &quot;%2&quot; of %3 appears again (first on line %4); a key may appear only once</source>
        <translation>第 %1 行：%3 的键“%2”再次出现（首次在第 %4 行）；每个键只能出现一次</translation>
    </message>
</context>
<context>
    <name>RecordValidation</name>
    <message>
        <source>moe does not apply to a dense model (model.kind is &quot;dense&quot;): remove the moe section</source>
        <translation>moe 不适用于稠密模型（model.kind 为 &quot;dense&quot;）：请删除 moe 部分</translation>
    </message>
    <message>
        <source>%1 is missing: %2</source>
        <translation>缺少 %1：%2</translation>
    </message>
    <message>
        <source>%1 is missing: %2 (required when %3 is %4)</source>
        <translation>缺少 %1：%2（%3 为 %4 时必填）</translation>
    </message>
    <message>
        <source>%1 must be %2, got %3</source>
        <translation>%1 应为%2，实际为 %3</translation>
    </message>
    <message>
        <source>%1 must be at most %2, got %3</source>
        <translation>%1 不能超过 %2，实际为 %3</translation>
    </message>
    <message>
        <source>%1 is empty: %2</source>
        <translation>%1 为空：%2</translation>
    </message>
    <message>
        <source>%1 does not apply when moe.overflow_policy is dropless (no token overflows): remove it</source>
        <translation>moe.overflow_policy 为 dropless 时 %1 不适用（没有 token 会溢出）：请删除它</translation>
    </message>
    <message>
        <source>%1 does not apply to load-balancing method %2: remove it</source>
        <translation>%1 不适用于负载均衡方法 %2：请删除它</translation>
    </message>
    <message>
        <source>%1 must be at least 2 for an MoE model, got 1: a model with one expert is a dense model (set model.kind to &quot;dense&quot;)</source>
        <translation>MoE 模型的 %1 至少为 2，实际为 1：只有一个专家的模型就是稠密模型（请把 model.kind 设为 &quot;dense&quot;）</translation>
    </message>
    <message>
        <source>%1 must be 0 for a dense model, got %2</source>
        <translation>稠密模型的 %1 必须为 0，实际为 %2</translation>
    </message>
    <message>
        <source>%1 must be at least 1 for an MoE model, got 0: a model without MoE layers is a dense model (set model.kind to &quot;dense&quot;)</source>
        <translation>MoE 模型的 %1 至少为 1，实际为 0：没有 MoE 层的模型就是稠密模型（请把 model.kind 设为 &quot;dense&quot;）</translation>
    </message>
    <message>
        <source>%1 must be 1 for a dense model (it has no experts), got %2</source>
        <translation>稠密模型的 %1 必须为 1（它没有专家），实际为 %2</translation>
    </message>
    <message>
        <source>%1 (%2) must not exceed moe.experts (%3): a token cannot be routed to more experts than there are</source>
        <translation>%1（%2）不能超过 moe.experts（%3）：一个 token 路由到的专家不能多于专家总数</translation>
    </message>
    <message>
        <source>%1 must be &quot;none&quot; when moe.overflow_policy is dropless (dropless experts have no capacity limit), got %2</source>
        <translation>moe.overflow_policy 为 dropless 时 %1 必须为 &quot;none&quot;（dropless 的专家没有容量上限），实际为 %2</translation>
    </message>
    <message>
        <source>%1 must be a positive number when moe.overflow_policy is %2 (tokens overflow only past a capacity), got &quot;none&quot;</source>
        <translation>moe.overflow_policy 为 %2 时 %1 必须是正数（只有超出容量的 token 才会溢出），实际为 &quot;none&quot;</translation>
    </message>
    <message>
        <source>%1 cannot be dropless with load-balancing method expert_choice: each expert takes a fixed number of tokens (capacity factor × top-k × tokens / experts)</source>
        <translation>负载均衡方法为 expert_choice 时 %1 不能是 dropless：每个专家接收固定数量的 token（容量因子 × top-k × token 数 / 专家数）</translation>
    </message>
    <message>
        <source>%1 (%2) must not exceed model.layers (%3)</source>
        <translation>%1（%2）不能超过 model.layers（%3）</translation>
    </message>
    <message>
        <source>%1 (%2) must not exceed model.total_params (%3)</source>
        <translation>%1（%2）不能超过 model.total_params（%3）</translation>
    </message>
    <message>
        <source>%1 (%2) must not exceed model.layers (%3): every pipeline stage holds at least one layer</source>
        <translation>%1（%2）不能超过 model.layers（%3）：每个流水线阶段至少包含一层</translation>
    </message>
    <message>
        <source>parallelism.dp × parallelism.tp × parallelism.pp × parallelism.cp = %1 × %2 × %3 × %4 = %5 must equal the world size cluster.nodes × cluster.accelerators_per_node = %6 × %7 = %8</source>
        <translation>parallelism.dp × parallelism.tp × parallelism.pp × parallelism.cp = %1 × %2 × %3 × %4 = %5，必须等于 world size cluster.nodes × cluster.accelerators_per_node = %6 × %7 = %8</translation>
    </message>
    <message>
        <source>%1 (%2) must divide moe.experts (%3): every expert-parallel rank holds the same number of experts</source>
        <translation>%1（%2）必须能整除 moe.experts（%3）：每个专家并行 rank 持有相同数量的专家</translation>
    </message>
    <message>
        <source>%1 (%2) must divide dp × cp (%3 × %4 = %5): expert-parallel groups are formed from the data- and context-parallel ranks (Megatron-Core convention)</source>
        <translation>%1（%2）必须能整除 dp × cp（%3 × %4 = %5）：专家并行组由数据并行和上下文并行的 rank 组成（Megatron-Core 约定）</translation>
    </message>
    <message>
        <source>%1 (%2) must be a multiple of batch.sequence_length (%3): a step holds whole sequences</source>
        <translation>%1（%2）必须是 batch.sequence_length（%3）的整数倍：一步包含整数个序列</translation>
    </message>
    <message>
        <source>%1 (%2 tokens = %3 sequences) must split evenly over parallelism.dp (%4): every data-parallel rank takes whole sequences</source>
        <translation>%1（%2 个 token = %3 个序列）必须能均分到 parallelism.dp（%4）上：每个数据并行 rank 接收整数个序列</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>expert tensor-parallel × expert-parallel × pipeline-parallel = %1 × %2 × %3 must divide the world size dp × tp × pp × cp = %4 (Megatron-Core forms expert-data-parallel groups from the rest)</source>
        <translation>专家张量并行 × 专家并行 × 流水线并行 = %1 × %2 × %3 必须能整除 world size dp × tp × pp × cp = %4（Megatron-Core 用其余的 rank 组成专家数据并行组）</translation>
    </message>
</context>
<context>
    <name>Routing</name>
    <message>
        <source>the number of experts must be between 1 and 65536</source>
        <translation>专家数必须在 1 到 65536 之间</translation>
    </message>
    <message>
        <source>the number of tokens must be between 1 and 2147483647</source>
        <translation>token 数必须在 1 到 2147483647 之间</translation>
    </message>
    <message>
        <source>top-k must be at least 1</source>
        <translation>Top-K 至少为 1</translation>
    </message>
    <message>
        <source>top-k cannot exceed the number of experts</source>
        <translation>Top-K 不能超过专家数</translation>
    </message>
    <message>
        <source>the capacity factor must be a positive number</source>
        <translation>容量因子必须是正数</translation>
    </message>
    <message>
        <source>the bias update rate must be a positive number</source>
        <translation>偏置更新率必须是正数</translation>
    </message>
    <message>
        <source>the bias batches and iterations must be at least 1</source>
        <translation>偏置的批次数和迭代次数至少为 1</translation>
    </message>
    <message>
        <source>choose at least one router</source>
        <translation>请至少选择一个路由器</translation>
    </message>
    <message>
        <source>tokens × experts must stay under 10^9 scores (4 GB)</source>
        <translation>token 数 × 专家数必须少于 10^9 个分数（4 GB）</translation>
    </message>
</context>
<context>
    <name>RunImport</name>
    <message numerus="yes">
        <source>%1 and %n more</source>
        <translation>
            <numerusform>%1 及另外 %n 项</numerusform>
        </translation>
    </message>
    <message>
        <source>tokens-per-expert rank files</source>
        <translation>tokens-per-expert rank 文件</translation>
    </message>
    <message>
        <source>routing-trace rank files</source>
        <translation>routing-trace rank 文件</translation>
    </message>
    <message>
        <source>%1 cannot be placed: %2 (set them in the config record)</source>
        <translation>无法确定 %1 在并行布局中的位置：%2（请在配置记录中设置）</translation>
    </message>
    <message>
        <source>names no rank (neither a rank{N} file name nor a &quot;rank&quot; key); rename it as the training wrote it</source>
        <translation>没有指明 rank（文件名不是 rank{N} 形式，也没有 &quot;rank&quot; 键）；请恢复训练写出时的文件名</translation>
    </message>
    <message>
        <source>is rank %1, outside the %2 ranks of the record&apos;s layout (dp × tp × pp × cp)</source>
        <translation>是 rank %1，超出了配置记录布局中的 %2 个 rank（dp × tp × pp × cp）</translation>
    </message>
    <message>
        <source>is rank %1, and so is %2</source>
        <translation>是 rank %1，而 %2 也是</translation>
    </message>
    <message>
        <source>has %1 experts per line at step %2 but %3 has %4: every EP rank holds the same number of experts</source>
        <translation>在第 %2 步每行有 %1 个专家，但 %3 有 %4 个：每个 EP rank 持有的专家数相同</translation>
    </message>
    <message>
        <source>has %1 local experts per line; with expert-parallel size %2 that is %3 experts per layer, but the record says moe.experts = %4</source>
        <translation>每行有 %1 个本地专家；专家并行规模为 %2 时即每层 %3 个专家，但配置记录中 moe.experts = %4</translation>
    </message>
    <message>
        <source>routes tokens to expert %1, but the record says moe.experts = %2</source>
        <translation>把 token 路由到了专家 %1，但配置记录中 moe.experts = %2</translation>
    </message>
    <message>
        <source>expert load: rank %1 = EP rank %2 (experts %3–%4), expert-DP %5, expert-TP %6, stage %7%8</source>
        <translation>专家负载：rank %1 = EP rank %2（专家 %3–%4），专家 DP %5，专家 TP %6，流水线阶段 %7%8</translation>
    </message>
    <message>
        <source> (same tokens as rank %1: counted once)</source>
        <translation>（与 rank %1 的 token 相同：只计一次）</translation>
    </message>
    <message>
        <source>expert load: tokens routed on rank %1 (stage %2), all %3 experts</source>
        <translation>专家负载：rank %1（流水线阶段 %2）上路由的 token，覆盖全部 %3 个专家</translation>
    </message>
    <message>
        <source>EP rank %1 of expert-DP group %2 in stage %3 (%4)</source>
        <translation>流水线阶段 %3 中专家 DP 组 %2 的 EP rank %1（%4）</translation>
    </message>
    <message>
        <source>the %1 are incomplete: no file holds %2. The record&apos;s layout (dp %3, tp %4, pp %5, cp %6, ep %7, etp %8, order %9) needs them all</source>
        <translation>%1 不完整：没有文件包含 %2。配置记录的布局（dp %3，tp %4，pp %5，cp %6，ep %7，etp %8，order %9）要求这些文件全部齐备</translation>
    </message>
    <message>
        <source>the %1 are incomplete: %2 missing of the %3 ranks of the record&apos;s layout (every rank routes its own tokens)</source>
        <translation>%1 不完整：配置记录布局的 %3 个 rank 中缺少 %2（每个 rank 路由各自的 token）</translation>
    </message>
    <message>
        <source>the %1 do not hold the same steps: %2. Import only the steps every rank has with --allow-partial-steps</source>
        <translation>%1 包含的步不一致：%2。可用 --allow-partial-steps 只导入所有 rank 都有的步</translation>
    </message>
    <message numerus="yes">
        <source>left out %n step(s) not every rank file has: %1</source>
        <translation>
            <numerusform>略去了 %n 个并非每个 rank 文件都有的步：%1</numerusform>
        </translation>
    </message>
    <message>
        <source>the %1 come from %2 pipeline stages; placing their layers needs model.layers in the record, divisible by parallelism.pp (got %3)</source>
        <translation>%1 来自 %2 个流水线阶段；要确定它们的层号，配置记录中需要有能被 parallelism.pp 整除的 model.layers（实际为 %3）</translation>
    </message>
    <message>
        <source>layers numbered globally in the files (stages past the first use layer numbers ≥ %1)</source>
        <translation>文件中的层按全局编号（第一个之后的流水线阶段使用 ≥ %1 的层号）</translation>
    </message>
    <message>
        <source>layer N of pipeline stage S is layer S × %1 + N (model.layers %2 / pp %3)</source>
        <translation>流水线阶段 S 的第 N 层即第 S × %1 + N 层（model.layers %2 / pp %3）</translation>
    </message>
    <message>
        <source>step %1: layer %2 is past the %3 layers of a pipeline stage</source>
        <translation>第 %1 步：第 %2 层超出了一个流水线阶段的 %3 层</translation>
    </message>
    <message>
        <source>step %1, layer %2: more than %3 tokens for expert %4 over the ranks</source>
        <translation>第 %1 步、第 %2 层：各 rank 合计分给专家 %4 的 token 超过 %3 个</translation>
    </message>
    <message>
        <source>step %1, %2: only %3 of the %4 rank files of stage %5 have it</source>
        <translation>第 %1 步、%2：流水线阶段 %5 的 %4 个 rank 文件中只有 %3 个包含它</translation>
    </message>
    <message>
        <source>layer %1</source>
        <translation>第 %1 层</translation>
    </message>
    <message>
        <source>MTP %1 layer %2</source>
        <translation>MTP %1 第 %2 层</translation>
    </message>
    <message>
        <source>step %1, layer %2 differs from %3, which the record&apos;s layout puts in the same expert-TP group (the same tokens): check parallelism.etp and parallelism.order</source>
        <translation>第 %1 步、第 %2 层与 %3 不同，而按配置记录的布局二者属于同一专家 TP 组（token 应相同）：请检查 parallelism.etp 和 parallelism.order</translation>
    </message>
    <message>
        <source>, expert-TP %1 counted once</source>
        <translation>，专家 TP %1 只计一次</translation>
    </message>
    <message>
        <source>%1 %2 summed into %3 experts per layer</source>
        <translation>%1 个 %2 求和为每层 %3 个专家</translation>
    </message>
    <message numerus="yes">
        <source>%n MTP layer(s) kept apart, numbered from %1</source>
        <translation>
            <numerusform>%n 个 MTP 层单独保留，编号从 %1 开始</numerusform>
        </translation>
    </message>
    <message>
        <source>a checkpoint or progress marker, not a log</source>
        <translation>检查点或进度标记，不是日志</translation>
    </message>
    <message>
        <source>a symbolic link (not followed)</source>
        <translation>符号链接（不跟随）</translation>
    </message>
    <message>
        <source>excluded with --exclude</source>
        <translation>已被 --exclude 排除</translation>
    </message>
    <message>
        <source>a W&amp;B local folder (export charts as CSV instead)</source>
        <translation>W&amp;B 本地文件夹（请改为把图表导出为 CSV）</translation>
    </message>
    <message>
        <source>a checkpoint or cache folder</source>
        <translation>检查点或缓存文件夹</translation>
    </message>
    <message>
        <source>deeper than %1 folders</source>
        <translation>目录层级深于 %1 层</translation>
    </message>
    <message>
        <source>holds more than %1 files to read; give its subfolders instead</source>
        <translation>包含超过 %1 个待读取的文件；请改为指定其子文件夹</translation>
    </message>
    <message numerus="yes">
        <source>%n communication sample(s)</source>
        <translation>
            <numerusform>%n 个通信样本</numerusform>
        </translation>
    </message>
    <message>
        <source>step metrics: %1</source>
        <translation>逐步指标：%1</translation>
    </message>
    <message numerus="yes">
        <source>expert load: %n block(s)</source>
        <translation>
            <numerusform>专家负载：%n 个块</numerusform>
        </translation>
    </message>
    <message>
        <source>gives %1 = %2 at step %3, but %4 gives %5: files of two trainings? Import them as separate runs</source>
        <translation>在第 %3 步给出 %1 = %2，但 %4 给出 %5：是两次训练的文件吗？请把它们作为不同的运行导入</translation>
    </message>
    <message>
        <source>gives other expert load at step %1, layer %2 than %3</source>
        <translation>在第 %1 步、第 %2 层给出的专家负载与 %3 不同</translation>
    </message>
    <message>
        <source>cannot read: no such file or folder</source>
        <translation>无法读取：文件或文件夹不存在</translation>
    </message>
    <message>
        <source>cannot list the folder</source>
        <translation>无法列出该文件夹的内容</translation>
    </message>
    <message numerus="yes">
        <source>no file to read (%n skipped)</source>
        <translation>
            <numerusform>没有可读取的文件（跳过了 %n 个）</numerusform>
        </translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source> — found in a folder given; leave it out with --exclude %1</source>
        <translation> — 位于所给的文件夹中；可用 --exclude %1 将其排除</translation>
    </message>
    <message>
        <source>rank files need the config record&apos;s parallelism to be merged</source>
        <translation>rank 文件需要配置记录中的并行设置（parallelism）才能合并</translation>
    </message>
    <message>
        <source>the tokens-per-expert rank files</source>
        <translation>tokens-per-expert rank 文件</translation>
    </message>
    <message>
        <source>the routing-trace rank files</source>
        <translation>routing-trace rank 文件</translation>
    </message>
    <message>
        <source>routing-trace steps stored one higher (trace step N is iteration N + 1, as the console log and the tokens-per-expert files number it)</source>
        <translation>routing-trace 的步号加 1 后存储（轨迹第 N 步即第 N + 1 次迭代，与控制台日志和 tokens-per-expert 文件的编号一致）</translation>
    </message>
    <message>
        <source>counts %1 experts per layer, but the record says moe.experts = %2: a tokens-per-expert file holds one EP rank&apos;s local experts; give every rank file (the tokens_per_expert folder) so they can be merged</source>
        <translation>每层统计了 %1 个专家，但配置记录中 moe.experts = %2：一个 tokens-per-expert 文件只包含一个 EP rank 的本地专家；请给出所有 rank 文件（tokens_per_expert 文件夹），以便合并</translation>
    </message>
    <message>
        <source>counts %1 experts per layer, but the record says moe.experts = %2</source>
        <translation>每层统计了 %1 个专家，但配置记录中 moe.experts = %2</translation>
    </message>
    <message>
        <source>tokens_per_s / world size %1 (record)</source>
        <translation>tokens_per_s / world size %1（配置记录）</translation>
    </message>
    <message>
        <source>samples_per_second × batch.sequence_length %1 / world size %2 (record)</source>
        <translation>samples_per_second × batch.sequence_length %1 / world size %2（配置记录）</translation>
    </message>
    <message numerus="yes">
        <source>%n step(s) of tokens_per_s_per_gpu derived: %1</source>
        <translation>
            <numerusform>推算了 %n 步的 tokens_per_s_per_gpu：%1</numerusform>
        </translation>
    </message>
    <message>
        <source>run &quot;%1&quot;</source>
        <translation>运行“%1”</translation>
    </message>
    <message>
        <source>the files given</source>
        <translation>所给的文件</translation>
    </message>
    <message>
        <source>counts %1 experts per layer, but %2 holds %3</source>
        <translation>每层统计了 %1 个专家，但%2中为 %3 个</translation>
    </message>
    <message>
        <source>is a communication measurement, and %1 already holds one</source>
        <translation>是一份通信测量，而%1中已有一份</translation>
    </message>
    <message numerus="yes">
        <source>  %1  %2  %n row(s)  %3</source>
        <translation>
            <numerusform>  %1  %2  %n 行  %3</numerusform>
        </translation>
    </message>
    <message>
        <source>  skipped %1: %2</source>
        <translation>  已跳过 %1：%2</translation>
    </message>
    <message>
        <source>  merged: %1</source>
        <translation>  合并：%1</translation>
    </message>
    <message>
        <source> or </source>
        <translation> 或 </translation>
    </message>
    <message>
        <source>says %1 = %2 but %3 says %4: sidecars of two trainings? Import them as separate runs</source>
        <translation>给出 %1 = %2，但 %3 给出 %4：来自两次训练的旁路文件？请作为不同的运行分别导入</translation>
    </message>
    <message>
        <source>routes each token to %1 experts, but the record says moe.top_k = %2</source>
        <translation>每个 token 路由到 %1 个专家，但配置记录中 moe.top_k = %2</translation>
    </message>
    <message>
        <source>the collector sidecars are incomplete: %1 missing of the %2 ranks of the training (its headers say world = %2; every rank routes its own tokens)</source>
        <translation>采集器旁路文件不完整：训练的 %2 个 rank 中缺少 %1（文件头给出 world = %2；每个 rank 路由自己的 token）</translation>
    </message>
    <message>
        <source>the collector sidecars do not hold the same steps: %1. Import only the steps every rank has with --allow-partial-steps</source>
        <translation>采集器旁路文件所含的步不一致：%1。可用 --allow-partial-steps 只导入每个 rank 都有的步</translation>
    </message>
    <message numerus="yes">
        <source>left out %n step(s) not every collector sidecar has</source>
        <translation>
            <numerusform>略去了并非每个采集器旁路文件都有的 %n 步</numerusform>
        </translation>
    </message>
    <message>
        <source>step %1: more than %2 token assignments over the ranks</source>
        <translation>第 %1 步：各 rank 合计超过 %2 个 token 分配</translation>
    </message>
    <message numerus="yes">
        <source>collector: rank %1 of %2, %n step(s)</source>
        <translation>
            <numerusform>采集器：第 %1 个 rank（共 %2 个），%n 步</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>busiest-device share measured in %n step(s): the rank with the most expert compute time, its compute + all-to-all time / its step time</source>
        <translation>
            <numerusform>在 %n 步中测得最忙设备占比：专家计算时间最长的 rank，其计算 + all-to-all 时间 / 其整步时间</numerusform>
        </translation>
    </message>
    <message>
        <source>tokens-per-expert rank files over all experts</source>
        <translation>覆盖全部专家的每专家 token 数 rank 文件</translation>
    </message>
    <message>
        <source>a config record, not a log (store it with moewb record add; the run&apos;s record is --record)</source>
        <translation>是配置记录而不是日志（用 moewb record add 保存；运行所属的记录由 --record 指定）</translation>
    </message>
    <message>
        <source>tokens-per-expert files over all experts (&quot;experts_scope&quot;: &quot;all&quot;, written by the collector: %1) and Megatron&apos;s per-EP-rank files (%2) cannot be merged into one expert load: import them as separate runs</source>
        <translation>覆盖全部专家的每专家 token 数文件（&quot;experts_scope&quot;: &quot;all&quot;，由采集器写出：%1）与 Megatron 按 EP rank 写出的文件（%2）不能合并为同一份专家负载：请作为不同的运行分别导入</translation>
    </message>
    <message>
        <source>no busiest-device share: not every rank measured its expert compute time in any one step</source>
        <translation>没有最忙设备占比：没有任何一步中每个 rank 都测量了其专家计算时间</translation>
    </message>
    <message numerus="yes">
        <source>%1 lacks %n step(s): %2</source>
        <translation>
            <numerusform>%1 缺少 %n 步：%2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n collector sidecar(s) merged over %1 ranks: drop rate = tokens dropped / tokens over ranks and MoE layers (%2)</source>
        <translation>
            <numerusform>合并了 %1 个 rank 的 %n 个采集器旁路文件：丢弃率 = 各 rank 与各 MoE 层合计的被丢弃 token 数 / token 数（%2）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n step(s)</source>
        <translation>
            <numerusform>%n 步</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 %2 merged into %3 experts per layer: EP %4 × %5 local experts, summed over %n expert-DP group(s)%6</source>
        <translation>
            <numerusform>%1 个 %2 合并为每层 %3 个专家：EP %4 × %5 个本地专家，在 %n 个专家 DP 组上求和%6</numerusform>
        </translation>
    </message>
    <message>
        <source>cannot read: %1</source>
        <translation>无法读取：%1</translation>
    </message>
    <message>
        <source>has changed since the import was planned (%1 bytes, modified %2; now %3 bytes, modified %4): plan the import again</source>
        <translation>在生成导入计划后已被改动（当时 %1 字节、修改于 %2；现在 %3 字节、修改于 %4）：请重新生成导入计划</translation>
    </message>
    <message>
        <source>has changed since the import was planned: plan the import again</source>
        <translation>在生成导入计划后已被改动：请重新生成导入计划</translation>
    </message>
    <message>
        <source>not a log by its name (.log, .out, .txt, .csv, .jsonl, .json, .json.gz, events.out.tfevents.*)</source>
        <translation>从文件名看不是日志（.log、.out、.txt、.csv、.jsonl、.json、.json.gz、events.out.tfevents.*）</translation>
    </message>
    <message>
        <source>holds profiler traces, and %1 already holds the step anatomy of its traces: import every rank&apos;s traces together, into a new run</source>
        <translation>包含性能剖析轨迹，而 %1 已有其轨迹的步骤剖析：请把所有 rank 的轨迹一起导入一个新运行</translation>
    </message>
    <message>
        <source>profiler trace of rank %1: no profiled step</source>
        <translation>rank %1 的性能剖析轨迹：没有被剖析的步</translation>
    </message>
    <message numerus="yes">
        <source>profiler trace of rank %1: %n profiled step(s) (%2–%3)</source>
        <translation>
            <numerusform>rank %1 的性能剖析轨迹：%n 个被剖析的步（%2–%3）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>; %n kernel(s) outside every profiled step left out</source>
        <translation>
            <numerusform>；%n 个不属于任何被剖析步的 kernel 已略去</numerusform>
        </translation>
    </message>
    <message>
        <source>no profiled step was recorded by every traced rank: no busiest-device share</source>
        <translation>没有一个被剖析的步被所有已记录轨迹的 rank 都记录下来：无法得出最忙设备占比</translation>
    </message>
    <message numerus="yes">
        <source>busiest-device share measured from profiler traces in %n step(s): mean %1 (the mean device %2)</source>
        <translation>
            <numerusform>已由性能剖析轨迹在 %n 步中测得最忙设备占比：平均 %1（平均设备 %2）</numerusform>
        </translation>
    </message>
    <message>
        <source>%1:%2-%3: the %4 test left out: %5</source>
        <translation>%1:%2-%3：未导入 %4 测试：%5</translation>
    </message>
    <message>
        <source>unnamed</source>
        <translation>未命名</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n more test(s) left out: %2</source>
        <translation>
            <numerusform>%1：另有 %n 个测试未导入：%2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1:%2: damaged line, %n field(s) kept; left out: %3</source>
        <translation>
            <numerusform>%1:%2：损坏的行，保留了 %n 个字段；未导入：%3</numerusform>
        </translation>
    </message>
    <message>
        <source>%1:%2: damaged line left out: %3</source>
        <translation>%1:%2：损坏的行未导入：%3</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n more damaged line(s) (import with --strict to refuse the file instead)</source>
        <translation>
            <numerusform>%1：另有 %n 行损坏（使用 --strict 导入则改为拒绝该文件）</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: the devices are %2, but the record&apos;s cluster says %3</source>
        <translation>%1：设备是 %2，但配置记录中的集群是 %3</translation>
    </message>
    <message>
        <source>%1: it ran on %2 ranks, but the record&apos;s cluster has %3 accelerators (%4 nodes × %5)</source>
        <translation>%1：它在 %2 个 rank 上运行，但配置记录中的集群有 %3 个加速器（%4 个节点 × %5）</translation>
    </message>
    <message numerus="yes">
        <source>%1: %2 ranks name %n host(s), more than the record&apos;s %3 accelerators per node: host names repeat across nodes (containers?), so nodes cannot be told apart by name</source>
        <translation>
            <numerusform>%1：%2 个 rank 只给出 %n 个主机名，超过配置记录中每节点 %3 个加速器：主机名在节点之间重复（容器？），无法按名称区分节点</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: its ranks name %n host(s), but the record&apos;s cluster has %2 nodes</source>
        <translation>
            <numerusform>%1：其 rank 给出 %n 个主机名，但配置记录中的集群有 %2 个节点</numerusform>
        </translation>
    </message>
    <message>
        <source>Warning: %1</source>
        <translation>警告：%1</translation>
    </message>
    <message>
        <source>is a second communication measurement (beside %1) of another test or world: a run holds one; import each as its own run</source>
        <translation>是另一个测试或另一规模的第二份通信测量（%1 之外）：一个运行只保存一份；请分别导入为独立的运行</translation>
    </message>
    <message numerus="yes">
        <source>%n more nccl-tests file(s) of the same test: their rows are further repeats of one baseline</source>
        <translation>
            <numerusform>另有 %n 个同一测试的 nccl-tests 文件：其数据行作为同一基线的更多重复</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: alltoallv_perf with a traffic matrix (%2×%2, scale %3): bytes per rank = the matrix&apos;s mean row sum, %4 (%5 B), from %6; the size column, %7, is the busiest rank&apos;s (rank %8); pattern_origin: %9</source>
        <translation>%1：带流量矩阵的 alltoallv_perf（%2×%2，缩放 %3）：每个 rank 的字节数 = 矩阵的平均行和，%4（%5 B），取自%6；size 列 %7 是最忙 rank（rank %8）的字节数；pattern_origin：%9</translation>
    </message>
    <message>
        <source>its summary lines, checked against %1</source>
        <translation>其汇总行，并与 %1 核对</translation>
    </message>
    <message>
        <source>its summary lines</source>
        <translation>其汇总行</translation>
    </message>
    <message>
        <source>the matrix %1</source>
        <translation>矩阵 %1</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n Megatron-Bridge Step Time line(s): model TFLOP/s/GPU per iteration (tflops_per_gpu). The log gives no tokens/s/GPU: stage 2 derives it from the step time as the record&apos;s global batch tokens (global batch × sequence length) ÷ (step time × world size), and says so.</source>
        <translation>
            <numerusform>%1：%n 行 Megatron-Bridge Step Time：每次迭代的模型 TFLOP/s/GPU（tflops_per_gpu）。日志没有给出 tokens/s/GPU：阶段 2 会用步时推算，即记录中的全局批 token 数（全局批大小 × 序列长度）÷（步时 × world size），并会注明。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: %n Step Time line(s) left out: no iteration line after them to give their iteration number</source>
        <translation>
            <numerusform>%1：略去 %n 行 Step Time：其后没有给出迭代编号的 iteration 行</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Stages</name>
    <message>
        <source>Run: moewb stage %1</source>
        <translation>运行：moewb stage %1</translation>
    </message>
    <message>
        <source>there is no stage %1: the stages are 1, 2, 3 and 4</source>
        <translation>没有阶段 %1：阶段为 1、2、3 和 4</translation>
    </message>
    <message>
        <source>Suggested (not applied): %1 = %2 — %3.</source>
        <translation>建议值（未应用）：%1 = %2 — %3。</translation>
    </message>
    <message>
        <source>Run stage 1 on the target cluster, or name the two runs.</source>
        <translation>在目标集群上运行阶段 1，或指定这两个运行。</translation>
    </message>
    <message>
        <source>not saved: %1</source>
        <translation>未保存：%1</translation>
    </message>
    <message>
        <source>a justification is required: an override is only valid with a written reason</source>
        <translation>必须填写理由：豁免只有附上书面理由才有效</translation>
    </message>
    <message>
        <source>stage %1 has no stop to override (its verdict is %2)</source>
        <translation>阶段 %1 没有可豁免的停止（其结论为 %2）</translation>
    </message>
    <message>
        <source>not yet decided</source>
        <translation>尚未判定</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>not started</source>
        <translation>未开始</translation>
    </message>
    <message>
        <source>passed</source>
        <translation>通过</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>not ready</source>
        <translation>未就绪</translation>
    </message>
    <message>
        <source>overridden</source>
        <translation>已豁免</translation>
    </message>
    <message>
        <source>stale</source>
        <translation>已过期</translation>
    </message>
    <message>
        <source>locked</source>
        <translation>已锁定</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Nodes: %1 × %2 %3 (target cluster: %4 × %5 %6).</source>
        <translation>节点：%1 × %2 %3（目标集群：%4 × %5 %6）。</translation>
    </message>
    <message>
        <source>Network and topology: %1; %2; intra-node %3; inter-node %4; rail-optimized %5.</source>
        <translation>网络与拓扑：%1；%2；节点内 %3；节点间 %4；rail 优化 %5。</translation>
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
        <source>Experts: %1 per layer, top-%2, capacity factor %3, overflow %4.</source>
        <translation>专家：每层 %1 个，Top-%2，容量因子 %3，溢出策略 %4。</translation>
    </message>
    <message>
        <source>Parallelism: DP %1, TP %2, PP %3, EP %4, CP %5.</source>
        <translation>并行方式：DP %1、TP %2、PP %3、EP %4、CP %5。</translation>
    </message>
    <message>
        <source>Outside these conditions, re-run stages 1–3 on the cluster in question.</source>
        <translation>超出这些条件时，请在相应集群上重新运行阶段 1–3。</translation>
    </message>
    <message>
        <source>Complete the config records named above (moewb record validate), then re-run stage 4.</source>
        <translation>补全上面列出的配置记录（moewb record validate），然后重新运行阶段 4。</translation>
    </message>
    <message>
        <source>%1: %2 bandwidth %3 on %4 vs %5 on %6 differs by %7 &gt; %8.</source>
        <translation>%1：%2带宽在 %4 上为 %3，在 %6 上为 %5，相差 %7 &gt; %8。</translation>
    </message>
    <message>
        <source>effective</source>
        <translation>有效</translation>
    </message>
    <message>
        <source>algorithm</source>
        <translation>算法</translation>
    </message>
    <message>
        <source>Measured on one cluster only, not compared: %1.</source>
        <translation>只在一个集群上测量、未参与比较：%1。</translation>
    </message>
    <message>
        <source>No message size was measured on both clusters (%1 and %2).</source>
        <translation>没有任何消息大小在两个集群（%1 和 %2）上都测量过。</translation>
    </message>
    <message>
        <source>Run stage 1 on the target cluster with the same sizes (-b -e -f) as the source.</source>
        <translation>在目标集群上用与源集群相同的大小（-b -e -f）运行阶段 1。</translation>
    </message>
    <message>
        <source>The conclusions are reference only, not for budget decisions, on the target cluster.</source>
        <translation>在目标集群上，这些结论仅供参考，不能用于预算决策。</translation>
    </message>
    <message>
        <source>Find where the baselines differ (network, topology, NCCL version), or re-run stages 1–3 on the target cluster and draw conclusions there.</source>
        <translation>找出基线的差异来源（网络、拓扑、NCCL 版本），或在目标集群上重新运行阶段 1–3，并在那里得出结论。</translation>
    </message>
    <message>
        <source>All %1 common sizes: the target baseline (%2) differs from the source (%3) by at most %4 ≤ %5.</source>
        <translation>全部 %1 个共同大小：目标基线（%2）与源基线（%3）的差异最多为 %4 ≤ %5。</translation>
    </message>
    <message>
        <source>Re-run stages 2–3 on the target cluster to confirm; the conclusions hold under the conditions stated.</source>
        <translation>在目标集群上重新运行阶段 2–3 加以确认；结论在上述条件下成立。</translation>
    </message>
    <message>
        <source>no run named %1 in %2</source>
        <translation>%2 中没有名为 %1 的运行</translation>
    </message>
    <message>
        <source>stage 4 compares two stage 1 runs: --run SOURCE --run TARGET</source>
        <translation>阶段 4 比较两个阶段 1 运行：--run SOURCE --run TARGET</translation>
    </message>
    <message numerus="yes">
        <source>stage 4 needs the stage 1 baselines of exactly two clusters; the project has %n cluster(s) with stage 1 runs. Name them: --run SOURCE --run TARGET</source>
        <translation>
            <numerusform>阶段 4 需要恰好两个集群的阶段 1 基线；项目中有 %n 个集群有阶段 1 运行。请指定：--run SOURCE --run TARGET</numerusform>
        </translation>
    </message>
    <message>
        <source>run %1 has no all-to-all samples (not a stage 1 run)</source>
        <translation>运行 %1 没有 all-to-all 样本（不是阶段 1 运行）</translation>
    </message>
    <message>
        <source>Stage %1 is locked: stage %2 has no verdict yet. Run: moewb stage %2</source>
        <translation>阶段 %1 已锁定：阶段 %2 尚无结论。运行：moewb stage %2</translation>
    </message>
    <message>
        <source>Stage %1 is locked: stage %2 is stale (the load-balancing method changed). Re-run: moewb stage %2</source>
        <translation>阶段 %1 已锁定：阶段 %2 已过期（负载均衡方法已更改）。重新运行：moewb stage %2</translation>
    </message>
    <message>
        <source>Stage %1 is locked: stage %2&apos;s verdict is &quot;%3&quot;. It unlocks when stage %2 passes or its stop is overridden with a written justification.</source>
        <translation>阶段 %1 已锁定：阶段 %2 的结论为“%3”。阶段 %2 通过，或其停止经书面理由豁免后，即可解锁。</translation>
    </message>
    <message numerus="yes">
        <source>run %1 (%n node(s))</source>
        <translation>
            <numerusform>运行 %1（%n 个节点）</numerusform>
        </translation>
    </message>
    <message>
        <source>run %1</source>
        <translation>运行 %1</translation>
    </message>
    <message>
        <source>No stage 1 run: the project has no all-to-all measurements.</source>
        <translation>没有阶段 1 运行：项目中没有 all-to-all 测量数据。</translation>
    </message>
    <message>
        <source>Run the probe at the target node count (moewb run stage1) or import nccl-tests alltoall_perf output (moewb import).</source>
        <translation>在目标节点数下运行探针（moewb run stage1），或导入 nccl-tests alltoall_perf 的输出（moewb import）。</translation>
    </message>
    <message>
        <source>%1 has no all-to-all samples.</source>
        <translation>%1 没有 all-to-all 样本。</translation>
    </message>
    <message>
        <source>%1: the world size is unknown, so the effective bandwidth cannot be computed; the table shows algbw (bytes per rank / median time) instead.</source>
        <translation>%1：world size 未知，无法计算有效带宽；表中改为显示 algbw（每个 rank 的字节数 / 中位耗时）。</translation>
    </message>
    <message>
        <source>%1, %2: run-to-run CV %3 &gt; %4.</source>
        <translation>%1，%2：重复间 CV %3 &gt; %4。</translation>
    </message>
    <message>
        <source>Investigate the network and topology (link and NIC errors, rail placement, congestion from other jobs), then re-run stage 1. Do not start stage 2.</source>
        <translation>排查网络和拓扑（链路与网卡错误、rail 布局、其他作业造成的拥塞），然后重新运行阶段 1。不要进入阶段 2。</translation>
    </message>
    <message>
        <source>Re-run stage 1 with repeats (-R 5 or more) so run-to-run variation can be measured.</source>
        <translation>增加重复次数（-R 5 或更多）重新运行阶段 1，以便测量重复间波动。</translation>
    </message>
    <message>
        <source>Go on to stage 2: compare the MoE with a dense control of similar activated size.</source>
        <translation>进入阶段 2：将 MoE 与激活参数量相近的稠密对照进行比较。</translation>
    </message>
    <message>
        <source>Comparison refused: run %1&apos;s config record: %2</source>
        <translation>拒绝比较：运行 %1 的配置记录：%2</translation>
    </message>
    <message>
        <source>(not recorded)</source>
        <translation>（未记录）</translation>
    </message>
    <message>
        <source> (coefficient %1)</source>
        <translation>（系数 %1）</translation>
    </message>
    <message>
        <source> (update rate %1)</source>
        <translation>（更新率 %1）</translation>
    </message>
    <message>
        <source>%1 uses %2</source>
        <translation>%1 使用 %2</translation>
    </message>
    <message>
        <source>Stage 2 is stale: the load-balancing method changed (%1; stage 2 compared %2 with %3). Re-run stage 2 with the new method to confirm throughput and loss.</source>
        <translation>阶段 2 已过期：负载均衡方法已更改（%1；阶段 2 比较的是 %2 与 %3）。请用新方法重新运行阶段 2，确认吞吐量和损失的变化。</translation>
    </message>
    <message>
        <source>No run with expert load: stage 3 needs tokens per expert per layer and step.</source>
        <translation>没有带专家负载的运行：阶段 3 需要按层、按步记录的每个专家的 token 数。</translation>
    </message>
    <message>
        <source>Log tokens per expert (e.g. Megatron&apos;s tokens-per-expert JSONL) and import it.</source>
        <translation>记录每个专家的 token 数（例如 Megatron 的 tokens-per-expert JSONL）并导入。</translation>
    </message>
    <message>
        <source>Complete the config records named above (moewb record validate), then re-run stage 3.</source>
        <translation>补全上面列出的配置记录（moewb record validate），然后重新运行阶段 3。</translation>
    </message>
    <message>
        <source>run %1 is a dense model: it has no experts.</source>
        <translation>运行 %1 是稠密模型：没有专家。</translation>
    </message>
    <message>
        <source>run %1 has no expert load.</source>
        <translation>运行 %1 没有专家负载。</translation>
    </message>
    <message>
        <source>run %1: drop rate %2.</source>
        <translation>运行 %1：丢弃率 %2。</translation>
    </message>
    <message>
        <source>run %1: busiest-device share %2 (estimated from expert placement over EP %3: busiest rank&apos;s tokens / all tokens of the layer; even load = %4).</source>
        <translation>运行 %1：最忙设备占比 %2（根据 EP %3 下的专家放置估算：最忙 rank 的 token 数 / 该层全部 token 数；均匀负载时为 %4）。</translation>
    </message>
    <message>
        <source>run %1: busiest-device share %2 of step time (measured).</source>
        <translation>运行 %1：最忙设备耗时占步时间的 %2（实测）。</translation>
    </message>
    <message>
        <source>Adjust the routing or the load-balancing method (or the capacity factor), then re-run stage 3. A changed balancing method also means re-running stage 2.</source>
        <translation>调整路由或负载均衡方法（或容量因子），然后重新运行阶段 3。更改负载均衡方法后还需重新运行阶段 2。</translation>
    </message>
    <message>
        <source>Provide what is missing above, then re-run stage 3.</source>
        <translation>补齐上面缺少的内容，然后重新运行阶段 3。</translation>
    </message>
    <message>
        <source>Re-run stage 2 with the new load-balancing method before going on.</source>
        <translation>继续之前，先用新的负载均衡方法重新运行阶段 2。</translation>
    </message>
    <message>
        <source>To carry the conclusions to another cluster, go on to stage 4.</source>
        <translation>若要把结论迁移到另一集群，请进入阶段 4。</translation>
    </message>
    <message>
        <source>not logged</source>
        <translation>未记录</translation>
    </message>
    <message>
        <source>missing</source>
        <translation>缺失</translation>
    </message>
    <message>
        <source>%1: %2 (MoE) vs %3 (dense)</source>
        <translation>%1：%2（MoE）对 %3（稠密）</translation>
    </message>
    <message>
        <source>No training runs: stage 2 needs an MoE run and a dense control run with metrics.</source>
        <translation>没有训练运行：阶段 2 需要一个 MoE 运行和一个带指标的稠密对照运行。</translation>
    </message>
    <message>
        <source>Import the MoE and the dense training logs (moewb import … --record NAME).</source>
        <translation>导入 MoE 和稠密模型的训练日志（moewb import … --record NAME）。</translation>
    </message>
    <message>
        <source>Complete the config records named above (moewb record validate), then re-run stage 2.</source>
        <translation>补全上面列出的配置记录（moewb record validate），然后重新运行阶段 2。</translation>
    </message>
    <message>
        <source>%1: no dense control run to compare with.</source>
        <translation>%1：没有可比较的稠密对照运行。</translation>
    </message>
    <message>
        <source>%1 vs %2</source>
        <translation>%1 对 %2</translation>
    </message>
    <message>
        <source>%1: not like for like — %2.</source>
        <translation>%1：口径不一致 — %2。</translation>
    </message>
    <message>
        <source>%1: dense activated parameters %2 differ from the MoE&apos;s %3 by %4 &gt; %5.</source>
        <translation>%1：稠密模型的激活参数量 %2 与 MoE 的 %3 相差 %4 &gt; %5。</translation>
    </message>
    <message>
        <source>%1: tokens/s/GPU after warm-up is missing for %2.</source>
        <translation>%1：%2 缺少预热后的 tokens/s/GPU。</translation>
    </message>
    <message>
        <source>%1: validation loss (val_loss) at equal tokens is missing for %2.</source>
        <translation>%1：%2 缺少相同 token 数下的验证损失（val_loss）。</translation>
    </message>
    <message>
        <source>MoE %1 tokens/s/GPU vs dense %2 (warm-up excluded); validation loss %3 vs %4 at %5 tokens</source>
        <translation>MoE %1 tokens/s/GPU 对稠密 %2（已排除预热）；在 %5 个 token 处验证损失 %3 对 %4</translation>
    </message>
    <message>
        <source>%1: %2 — the MoE is slower and its validation loss is not better.</source>
        <translation>%1：%2 — MoE 更慢，且验证损失没有改善。</translation>
    </message>
    <message>
        <source>%1: %2 — the MoE %3.</source>
        <translation>%1：%2 — MoE %3。</translation>
    </message>
    <message>
        <source>reaches a better validation loss</source>
        <translation>取得了更好的验证损失</translation>
    </message>
    <message>
        <source>is at least as fast</source>
        <translation>速度不低于稠密模型</translation>
    </message>
    <message>
        <source>%1: the validation points are at %2 and %3 tokens, not exactly equal.</source>
        <translation>%1：验证点分别位于 %2 和 %3 个 token 处，并不完全相等。</translation>
    </message>
    <message>
        <source>%1: tokens/s/GPU derived from elapsed time per iteration, global batch tokens and world size.</source>
        <translation>%1：tokens/s/GPU 由每次迭代的耗时、全局批次 token 数和 world size 推算得出。</translation>
    </message>
    <message>
        <source>No MoE run: stage 2 compares an MoE run with a dense control run.</source>
        <translation>没有 MoE 运行：阶段 2 比较 MoE 运行与稠密对照运行。</translation>
    </message>
    <message>
        <source>The configuration does not pay: adjust it (top-k, capacity factor, parallel layout, balancing) and re-run stage 2. Do not add experts.</source>
        <translation>该配置的收益不成立：请调整配置（Top-K、容量因子、并行布局、负载均衡）后重新运行阶段 2。不要增加专家数量。</translation>
    </message>
    <message>
        <source>Make the comparison like for like (same batch, sequence, recipe, validation set, throughput accounting; a dense model of similar activated size), then re-run stage 2.</source>
        <translation>使比较口径一致（相同的批次、序列、训练配方、验证集和吞吐量统计口径；激活参数量相近的稠密模型），然后重新运行阶段 2。</translation>
    </message>
    <message>
        <source>Go on to stage 3: log tokens per expert per layer and step.</source>
        <translation>进入阶段 3：按层、按步记录每个专家的 token 数。</translation>
    </message>
    <message>
        <source>team threshold</source>
        <translation>团队阈值</translation>
    </message>
    <message>
        <source>suggested from round 1</source>
        <translation>根据第一轮测量建议</translation>
    </message>
    <message>
        <source>placeholder — set your own</source>
        <translation>占位值 — 请设置自己的值</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>PASS</source>
        <translation>通过</translation>
    </message>
    <message>
        <source>STOP</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>NOT READY</source>
        <translation>未就绪</translation>
    </message>
    <message>
        <source>pass</source>
        <comment>stored verdict token</comment>
        <translation>通过</translation>
    </message>
    <message>
        <source>stop</source>
        <comment>stored verdict token</comment>
        <translation>停止</translation>
    </message>
    <message>
        <source>not_ready</source>
        <comment>stored verdict token</comment>
        <translation>未就绪</translation>
    </message>
    <message>
        <source>%1 concurrent all-to-alls of EP %2</source>
        <translation>%1 个并发的 all-to-all（EP 规模各为 %2）</translation>
    </message>
    <message>
        <source>one %1-rank all-to-all</source>
        <translation>单个 all-to-all（%1 个 rank）</translation>
    </message>
    <message>
        <source>an all-to-all over an unknown number of ranks</source>
        <translation>rank 数未知的 all-to-all</translation>
    </message>
    <message>
        <source>record %1: %2 was measured as %3; the training runs %4</source>
        <translation>配置记录 %1：%2 的测量方式为 %3；而训练运行的是 %4</translation>
    </message>
    <message>
        <source>%1: measured as %2.</source>
        <translation>%1：测量方式为 %2。</translation>
    </message>
    <message>
        <source>Measure it the way the training communicates: moewb run stage1 --cluster NAME --record RECORD --nodes N (EP groups of the record&apos;s EP size, all at once).</source>
        <translation>请按训练的通信方式测量：moewb run stage1 --cluster NAME --record RECORD --nodes N（按配置记录的 EP 规模划分 EP 组，所有组同时运行）。</translation>
    </message>
    <message>
        <source>estimated from expert load and capacity factor: dropped assignments / assignments, an upper bound of the tokens dropped / tokens</source>
        <translation>根据专家负载和容量因子估算：丢弃的分配数 / 分配总数，是丢弃的 token 数 / token 总数的上界</translation>
    </message>
    <message>
        <source>run %1 counts %2 experts per layer, but its record says moe.experts = %3: refused (a tokens-per-expert file of one rank holds only that EP rank&apos;s local experts; import every rank file as one run, or fix the record).</source>
        <translation>运行 %1 每层统计了 %2 个专家，但其配置记录中 moe.experts = %3：已拒绝（单个 rank 的 tokens-per-expert 文件只包含该 EP rank 的本地专家；请把所有 rank 文件作为一个运行导入，或修正配置记录）。</translation>
    </message>
    <message>
        <source>; beside it: assignments dropped %1</source>
        <translation>；此外，被丢弃的分配占比 %1</translation>
    </message>
    <message>
        <source>; tokens partly dropped %1</source>
        <translation>；部分被丢弃的 token 占比 %1</translation>
    </message>
    <message numerus="yes">
        <source>… and %n more impossible value(s).</source>
        <translation>
            <numerusform>……另有 %n 个不可能的值。</numerusform>
        </translation>
    </message>
    <message>
        <source>time %1 µs is not a number</source>
        <translation>时间 %1 µs 不是有效数值</translation>
    </message>
    <message>
        <source>time %1 µs is negative</source>
        <translation>时间 %1 µs 为负</translation>
    </message>
    <message>
        <source>time 0 µs for a non-empty message</source>
        <translation>非空消息的时间为 0 µs</translation>
    </message>
    <message>
        <source>run %1, %2, repeat %3, iteration %4: %5</source>
        <translation>运行 %1，%2，第 %3 轮重复，第 %4 次迭代：%5</translation>
    </message>
    <message>
        <source>%1 is %2</source>
        <translation>%1 为 %2</translation>
    </message>
    <message>
        <source>%1 is %2, below its lowest possible value %3</source>
        <translation>%1 为 %2，低于其可能的最小值 %3</translation>
    </message>
    <message>
        <source>%1 is %2, a rate above 1</source>
        <translation>%1 为 %2，比率大于 1</translation>
    </message>
    <message>
        <source>run %1, step %2: %3</source>
        <translation>运行 %1，第 %2 步：%3</translation>
    </message>
    <message>
        <source>Not ready: the data holds impossible values.</source>
        <translation>未就绪：数据中含有不可能的值。</translation>
    </message>
    <message>
        <source>Fix or re-measure the runs named above (a broken timer, a unit mistake or a corrupt file), re-import them, then re-run the stage.</source>
        <translation>修正或重新测量上述运行（计时器故障、单位错误或文件损坏），重新导入后再运行该阶段。</translation>
    </message>
    <message numerus="yes">
        <source>%n new run(s): %1</source>
        <translation>
            <numerusform>%n 个新运行：%1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n run(s) re-imported since: %1</source>
        <translation>
            <numerusform>%n 个运行此后被重新导入：%1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n run(s) no longer there: %1</source>
        <translation>
            <numerusform>%n 个运行已不存在：%1</numerusform>
        </translation>
    </message>
    <message>
        <source>New data since the verdict — re-evaluate? %1. The verdict, its lock and any override stay as they are until stage %2 is evaluated again.</source>
        <translation>判定之后有新数据 —— 要重新评估吗？%1。在重新评估阶段 %2 之前，判定、其锁定状态和任何豁免都保持不变。</translation>
    </message>
    <message>
        <source>record %1 does not give %2, so no baseline can be matched to the node count and EP concurrency it trains at</source>
        <translation>记录 %1 未给出 %2，因此无法把任何基线与其训练时的节点数和 EP 并发对应起来</translation>
    </message>
    <message>
        <source> and </source>
        <translation> 和 </translation>
    </message>
    <message>
        <source>Complete the record: give its node count (cluster.nodes) and its EP size (parallelism.ep), then evaluate stage 1 again.</source>
        <translation>补全记录：填写节点数（cluster.nodes）和 EP 规模（parallelism.ep），然后重新评估阶段 1。</translation>
    </message>
    <message>
        <source>measured: tokens dropped / tokens, drop_rate</source>
        <translation>实测：丢弃的 token / token，drop_rate</translation>
    </message>
    <message>
        <source>measured: dropped_tokens / global batch tokens × MoE layers</source>
        <translation>实测：dropped_tokens / 全局批 token 数 × MoE 层数</translation>
    </message>
    <message>
        <source>not applicable: no tokens are dropped under this overflow policy</source>
        <translation>不适用：此溢出策略下不会丢弃 token</translation>
    </message>
    <message numerus="yes">
        <source>the last %n step(s), %1–%2</source>
        <translation>
            <numerusform>最后 %n 步，%1–%2</numerusform>
        </translation>
    </message>
    <message>
        <source>run %1, %2: max/mean above %3 in %4 of %5, more than the limit %6</source>
        <translation>运行 %1，%2：在%5中有 %4 的步 max/mean 高于 %3，超过上限 %6</translation>
    </message>
    <message>
        <source>run %1: drop rate %2 over %3 — %4</source>
        <translation>运行 %1：%3的丢弃率为 %2 —— %4</translation>
    </message>
    <message>
        <source>%1; above the limit %2.</source>
        <translation>%1；高于上限 %2。</translation>
    </message>
    <message>
        <source>%1; within the limit %2.</source>
        <translation>%1；在上限 %2 之内。</translation>
    </message>
    <message>
        <source>run %1: the drop rate is not logged: no drop_rate or dropped_tokens metric, and no capacity factor to estimate it from.</source>
        <translation>运行 %1：未记录丢弃率：没有 drop_rate 或 dropped_tokens 指标，也没有可用于估算的容量因子。</translation>
    </message>
    <message>
        <source>run %1, worst %2: max/mean above %3 in %4 of %5, within the limit %6; max/mean at most %7, mean %8.</source>
        <translation>运行 %1，最差的%2：在%5中有 %4 的步 max/mean 高于 %3，在上限 %6 之内；max/mean 最大 %7，平均 %8。</translation>
    </message>
    <message>
        <source>run %1: busiest-device share %2 of step time (measured by the collector: the busiest rank&apos;s expert compute + all-to-all time / its step time).</source>
        <translation>运行 %1：最忙设备占整步时间的 %2（由采集器测得：最忙 rank 的专家计算 + all-to-all 时间 / 其整步时间）。</translation>
    </message>
    <message numerus="yes">
        <source>record %1 trains on %n node(s), but these baselines do not say on how many nodes they ran: %2. A moe-probe report or a whole nccl-tests rank list does</source>
        <translation>
            <numerusform>记录 %1 在 %n 个节点上训练，但这些基线没有说明它们在多少个节点上运行：%2。moe-probe 报告或完整的 nccl-tests rank 列表会说明</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>record %1 trains on %n node(s): no baseline at that node count on its cluster</source>
        <translation>
            <numerusform>记录 %1 在 %n 个节点上训练：其集群上没有该节点数的基线</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>record %1 trains on %n node(s): no baseline at that node count; the baselines were measured at %2</source>
        <translation>
            <numerusform>记录 %1 在 %n 个节点上训练：没有该节点数的基线；已有基线测于 %2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n node(s)</source>
        <translation>
            <numerusform>%n 个节点</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>record %1: baseline %2 matches its %n node(s) and its concurrency.</source>
        <translation>
            <numerusform>记录 %1：基线 %2 与其 %n 个节点及其并发一致。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>All %1 sizes in %n run(s): run-to-run CV at most %2 ≤ %3; P99/median at most %4 ≤ %5.</source>
        <translation>
            <numerusform>%n 个运行中的全部 %1 个大小：轮间 CV 最大 %2 ≤ %3；P99/中位数最大 %4 ≤ %5。</numerusform>
        </translation>
    </message>
    <message>
        <source>Measure it the way the training communicates: run nccl-tests on N nodes, one rank per GPU (mpirun -np RANKS or srun), e.g. alltoall_perf -b 1M -e 256M -f 2 -n 20 -w 5 -g 1 -N 5, with NCCL_TESTS_SPLIT_MASK set so that the ranks form EP groups of the record&apos;s EP size; then import its output (moewb import).</source>
        <translation>请按训练的通信方式测量：在 N 个节点上运行 nccl-tests，每个 GPU 一个 rank（mpirun -np RANKS 或 srun），例如 alltoall_perf -b 1M -e 256M -f 2 -n 20 -w 5 -g 1 -N 5，并设置 NCCL_TESTS_SPLIT_MASK，使各 rank 按配置记录的 EP 规模分成 EP 组；然后导入其输出（moewb import）。</translation>
    </message>
    <message>
        <source>Re-run alltoall_perf with -N 5 or more (each cycle printed as one repeat) so run-to-run variation can be measured.</source>
        <translation>请用 -N 5 或更多重新运行 alltoall_perf（每轮输出计为一次重复），以便测量重复间波动。</translation>
    </message>
    <message>
        <source>moe-probe runs: %1 nccl-tests runs: %2</source>
        <translation>moe-probe 的运行：%1 nccl-tests 的运行：%2</translation>
    </message>
    <message numerus="yes">
        <source>run %1: busiest-device share %2 of step time (measured: profiler traces, mean over %n traced step(s): the busiest rank&apos;s compute + communication without waiting / its step time); the mean device %3.</source>
        <translation>
            <numerusform>运行 %1：最忙设备占整步时间的 %2（实测：性能剖析轨迹，%n 个已记录步的平均：最忙 rank 的计算 + 通信（不含等待）÷ 其整步时间）；平均设备 %3。</numerusform>
        </translation>
    </message>
    <message>
        <source>run %1: its %2 all-to-all at %3 per rank reached %4 in the training against %5 measured by stage 1 (run %6): %7 of the baseline</source>
        <translation>运行 %1：其 %2 all-to-all 在每 rank %3 时，训练中达到 %4，而阶段 1（运行 %6）测得 %5：为基线的 %7</translation>
    </message>
    <message>
        <source>Finding — %1, below the %2 limit: the training&apos;s all-to-all runs well below what the cluster delivers, so the cause is in the training (message sizes, overlap with compute, imbalance); see the step anatomy (moewb anatomy %3).</source>
        <translation>发现 — %1，低于 %2 的限值：训练中的 all-to-all 远低于集群能提供的水平，原因在训练本身（消息大小、与计算的重叠、负载不均）；请查看步骤剖析（moewb anatomy %3）。</translation>
    </message>
    <message>
        <source>stage %1 has no override in effect</source>
        <translation>阶段 %1 没有生效的豁免</translation>
    </message>
    <message>
        <source> and %1 more</source>
        <translation> 及另外 %1 项</translation>
    </message>
    <message>
        <source>%1: the 0-byte rows are shown but not gated and not used for suggested thresholds (an empty all-to-all times only the launch).</source>
        <translation>%1:0 字节的行仅显示,不参与判定,也不用于建议阈值(空的 all-to-all 只测到启动开销)。</translation>
    </message>
    <message>
        <source>run alltoall_perf -N 5 or import several files</source>
        <translation>运行 alltoall_perf -N 5 或导入多个文件</translation>
    </message>
    <message>
        <source>run the probe with -R 5 or more</source>
        <translation>以 -R 5 或更多运行探针</translation>
    </message>
    <message>
        <source>%1, %2: one repeat; run-to-run variation needs at least 2 — %3.</source>
        <translation>%1,%2:仅一次重复;运行间波动至少需要 2 次 — %3。</translation>
    </message>
    <message>
        <source>%1: %2 sizes have one repeat each; run-to-run variation needs at least 2 — %3.</source>
        <translation>%1:%2 个消息大小各只有一次重复;运行间波动至少需要 2 次 — %3。</translation>
    </message>
    <message>
        <source>LOCKED</source>
        <translation>已锁定</translation>
    </message>
    <message>
        <source>Evaluate the earlier stage until it passes, or override its stop with a written justification.</source>
        <translation>评估前一阶段直至通过,或以书面理由豁免其停止。</translation>
    </message>
    <message>
        <source>NOT EVALUATED</source>
        <translation>未评估</translation>
    </message>
    <message>
        <source>Evaluate stage %1.</source>
        <translation>评估阶段 %1。</translation>
    </message>
    <message>
        <source>Fix the cause and evaluate stage %1 again, or override its stop with a written justification.</source>
        <translation>排除原因后重新评估阶段 %1,或以书面理由豁免其停止。</translation>
    </message>
    <message>
        <source>STALE</source>
        <translation>已过期</translation>
    </message>
    <message>
        <source>The load-balancing method changed after this verdict: evaluate stage %1 again.</source>
        <translation>此结论之后负载均衡方法已改变:请重新评估阶段 %1。</translation>
    </message>
    <message>
        <source>STOP — OVERRIDDEN ON OLDER DATA</source>
        <translation>停止 — 豁免基于旧数据</translation>
    </message>
    <message>
        <source>STOP — OVERRIDDEN</source>
        <translation>停止 — 已豁免</translation>
    </message>
    <message>
        <source>someone unnamed</source>
        <translation>未署名者</translation>
    </message>
    <message>
        <source>Overridden by %1 on %2: “%3”.</source>
        <translation>由 %1 于 %2 豁免:“%3”。</translation>
    </message>
    <message>
        <source>The override was given on older data: the stop was evaluated again on other runs or thresholds.</source>
        <translation>此豁免基于旧数据:停止结论已在其他运行或阈值上重新评估。</translation>
    </message>
    <message>
        <source>Confirm the override (write it again for this stop) or withdraw it.</source>
        <translation>请确认豁免(为此停止重新填写)或撤回豁免。</translation>
    </message>
    <message>
        <source>The override was given on older data: new data arrived since the stop.</source>
        <translation>此豁免基于旧数据:停止结论之后有新数据。</translation>
    </message>
    <message>
        <source>Evaluate stage %1 again, then confirm or withdraw the override.</source>
        <translation>请重新评估阶段 %1,然后确认或撤回豁免。</translation>
    </message>
    <message>
        <source>The stop stays on record beside the justification; stage %1 is unlocked.</source>
        <translation>停止结论与理由一并留档;阶段 %1 已解锁。</translation>
    </message>
    <message>
        <source>New data since the verdict: evaluate stage %1 again.</source>
        <translation>结论之后有新数据:请重新评估阶段 %1。</translation>
    </message>
    <message>
        <source>run %1: %2%3; it is not judged. Re-import it, or remove it: the project file is damaged or was altered.</source>
        <translation>运行 %1：%2%3；不予评判。请重新导入或移除它：项目文件已损坏或被改动。</translation>
    </message>
    <message numerus="yes">
        <source> (and %n more part(s) of its expert load)</source>
        <translation>
            <numerusform>（其专家负载另有 %n 处）</numerusform>
        </translation>
    </message>
    <message>
        <source>run %1, %2: EP-rank load ratio above %3 in %4 of %5, more than the limit %6 — measured (overload factor): the busiest EP rank&apos;s tokens / the balanced count, a lower bound of the per-expert max/mean, so the experts are at least this unbalanced.</source>
        <translation>运行 %1，%2：EP rank 负载比高于 %3 的步数占 %5 的 %4，超过上限 %6 — 实测（过载因子）：最忙 EP rank 的 token 数 / 均衡时的 token 数，是按专家计算的最大值/均值的下界，因此专家的不均衡至少有这么大。</translation>
    </message>
    <message>
        <source>run %1, worst %2: EP-rank load ratio above %3 in %4 of %5, within the limit %6; at most %7, mean %8 — measured (overload factor): the busiest EP rank&apos;s tokens / the balanced count, a lower bound of the per-expert max/mean; one expert may still be busier (import tokens per expert to judge the experts themselves).</source>
        <translation>运行 %1，最差的 %2：EP rank 负载比高于 %3 的步数占 %5 的 %4，在上限 %6 之内；最大 %7，均值 %8 — 实测（过载因子）：最忙 EP rank 的 token 数 / 均衡时的 token 数，是按专家计算的最大值/均值的下界；单个专家仍可能更忙（导入每个专家的 token 数才能评判专家本身）。</translation>
    </message>
    <message>
        <source>run %1: busiest-device share %2 — measured (overload factor): Megatron-Core&apos;s max overload factor %3, the most loaded EP rank&apos;s tokens / the balanced count, ÷ EP %4; even load = %5.</source>
        <translation>运行 %1：最忙设备占比 %2 — 实测（过载因子）：Megatron-Core 的最大过载因子 %3（负载最重的 EP rank 的 token 数 / 均衡时的 token 数）÷ EP %4；均匀负载 = %5。</translation>
    </message>
    <message>
        <source>run %1 has no expert load: only Megatron-Core&apos;s overload factor over all layers (max_overload_factor). Log it per layer (--log-moe-overload-factor with --moe-per-layer-logging writes moe/max_overload_factor_layer_&lt;i&gt; to TensorBoard or W&amp;B) or import tokens per expert.</source>
        <translation>运行 %1 没有专家负载：只有 Megatron-Core 跨所有层的过载因子（max_overload_factor）。请按层记录（--log-moe-overload-factor 配合 --moe-per-layer-logging 会把 moe/max_overload_factor_layer_&lt;i&gt; 写入 TensorBoard 或 W&amp;B），或导入每个专家的 token 数。</translation>
    </message>
    <message numerus="yes">
        <source>1.5 × the median run-to-run CV (%1) over %n size(s) of %2; at least %3</source>
        <translation>
            <numerusform>%2 的 %n 个大小上运行间 CV 中位数（%1）的 1.5 倍；至少 %3</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>1.5 × the median P99/median (%1) over %n size(s) of %2</source>
        <translation>
            <numerusform>%2 的 %n 个大小上 P99/中位数 的中位数（%1）的 1.5 倍</numerusform>
        </translation>
    </message>
    <message>
        <source>%1, %2: P99 %3 is %4 the median %5 &gt; %6.</source>
        <translation>%1，%2：P99 %3 是中位数 %5 的 %4 &gt; %6。</translation>
    </message>
    <message numerus="yes">
        <source>%1: run-to-run CV &gt; %2 at %n size(s): %3.</source>
        <translation>
            <numerusform>%1：%n 个大小的运行间 CV &gt; %2：%3。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: P99/median &gt; %2 at %n size(s): %3.</source>
        <translation>
            <numerusform>%1：%n 个大小的 P99/中位数 &gt; %2：%3。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 steps</source>
        <translation>%1 步</translation>
    </message>
    <message numerus="yes">
        <source>%1 and %n node(s)</source>
        <translation>
            <numerusform>%1 和 %n 个节点</numerusform>
        </translation>
    </message>
    <message>
        <source>relative difference of the dense control&apos;s activated parameters from the MoE&apos;s</source>
        <translation>稠密对照模型的激活参数量相对 MoE 的差异</translation>
    </message>
    <message>
        <source>the last steps of each run that stage 3 judges</source>
        <translation>阶段 3 评判的每个运行的最后若干步</translation>
    </message>
    <message>
        <source>the training&apos;s all-to-all bandwidth against stage 1&apos;s at the same size, below which stage 3 names a finding</source>
        <translation>训练中的 all-to-all 带宽与阶段 1 同一大小下带宽之比，低于此值时阶段 3 给出发现</translation>
    </message>
</context>
<context>
    <name>Store</name>
    <message>
        <source>no project file given</source>
        <translation>未指定项目文件</translation>
    </message>
    <message>
        <source>is a folder, not a project file</source>
        <translation>是文件夹，不是项目文件</translation>
    </message>
    <message>
        <source>cannot be read: %1</source>
        <translation>无法读取：%1</translation>
    </message>
    <message>
        <source>is not a MoE Workbench project (not an SQLite database)</source>
        <translation>不是 MoE Workbench 项目（不是 SQLite 数据库）</translation>
    </message>
    <message>
        <source>no such project file</source>
        <translation>项目文件不存在</translation>
    </message>
    <message>
        <source>cannot create the folder %1</source>
        <translation>无法创建文件夹 %1</translation>
    </message>
    <message>
        <source>the Qt SQLite driver (QSQLITE) is not installed</source>
        <translation>未安装 Qt SQLite 驱动（QSQLITE）</translation>
    </message>
    <message>
        <source>cannot be opened: %1</source>
        <translation>无法打开：%1</translation>
    </message>
    <message>
        <source>is not a readable project: %1</source>
        <translation>不是可读取的项目：%1</translation>
    </message>
    <message>
        <source>is an SQLite database but not a MoE Workbench project</source>
        <translation>是 SQLite 数据库，但不是 MoE Workbench 项目</translation>
    </message>
    <message>
        <source>was written by a newer MoE Workbench (schema version %1; this build reads up to %2). Update MoE Workbench to open it.</source>
        <translation>由更新版本的 MoE Workbench 写入（schema 版本 %1；此版本最高可读取 %2）。请升级 MoE Workbench 后再打开。</translation>
    </message>
    <message>
        <source>is a damaged project (it has no schema version)</source>
        <translation>是已损坏的项目（没有 schema 版本）</translation>
    </message>
    <message>
        <source>cannot switch to write-ahead logging: %1</source>
        <translation>无法切换到预写日志（WAL）模式：%1</translation>
    </message>
    <message>
        <source>cannot create the project: %1</source>
        <translation>无法创建项目：%1</translation>
    </message>
    <message>
        <source>cannot back up the project before upgrading it: %1</source>
        <translation>升级前无法备份项目：%1</translation>
    </message>
    <message>
        <source>cannot upgrade the project: %1</source>
        <translation>无法升级项目：%1</translation>
    </message>
    <message>
        <source>cannot upgrade the project from schema version %1 to %2: %3</source>
        <translation>无法将项目从 schema 版本 %1 升级到 %2：%3</translation>
    </message>
    <message>
        <source>cannot be opened: unexpected schema version after upgrade</source>
        <translation>无法打开：升级后的 schema 版本异常</translation>
    </message>
    <message>
        <source>a config record needs a name</source>
        <translation>配置记录需要名称</translation>
    </message>
    <message>
        <source>a config record named %1 already exists</source>
        <translation>名为 %1 的配置记录已存在</translation>
    </message>
    <message>
        <source>cannot save config record %1: %2</source>
        <translation>无法保存配置记录 %1：%2</translation>
    </message>
    <message>
        <source>no config record named %1</source>
        <translation>没有名为 %1 的配置记录</translation>
    </message>
    <message>
        <source>a cluster needs a name</source>
        <translation>集群需要名称</translation>
    </message>
    <message>
        <source>a cluster named %1 already exists</source>
        <translation>名为 %1 的集群已存在</translation>
    </message>
    <message>
        <source>cannot save cluster %1: %2</source>
        <translation>无法保存集群 %1：%2</translation>
    </message>
    <message>
        <source>a node of cluster %1 has no address</source>
        <translation>集群 %1 中有一个节点没有地址</translation>
    </message>
    <message>
        <source>node %1 is listed twice in cluster %2</source>
        <translation>节点 %1 在集群 %2 中列出了两次</translation>
    </message>
    <message>
        <source>cannot save node %1: %2</source>
        <translation>无法保存节点 %1：%2</translation>
    </message>
    <message>
        <source>a threshold needs a key</source>
        <translation>阈值需要键名</translation>
    </message>
    <message>
        <source>threshold %1 must be a finite number</source>
        <translation>阈值 %1 必须是有限数</translation>
    </message>
    <message>
        <source>cannot save threshold %1: %2</source>
        <translation>无法保存阈值 %1：%2</translation>
    </message>
    <message>
        <source>there is no stage %1 (stages are 1 to 4)</source>
        <translation>没有阶段 %1（阶段为 1 到 4）</translation>
    </message>
    <message>
        <source>a verdict needs a status</source>
        <translation>结论需要状态</translation>
    </message>
    <message>
        <source>cannot save the verdict of stage %1: %2</source>
        <translation>无法保存阶段 %1 的结论：%2</translation>
    </message>
    <message>
        <source>overriding stage %1 needs a written justification</source>
        <translation>豁免阶段 %1 需要书面理由</translation>
    </message>
    <message>
        <source>cannot save the override of stage %1: %2</source>
        <translation>无法保存阶段 %1 的豁免：%2</translation>
    </message>
    <message>
        <source>row %1 of table %2 refers to a missing row of %3</source>
        <translation>表 %2 的第 %1 行引用了 %3 中不存在的行</translation>
    </message>
    <message>
        <source>an assessment dimension needs a key</source>
        <translation>评估维度需要键名</translation>
    </message>
    <message>
        <source>the assessment dimension %1 is given twice</source>
        <translation>评估维度 %1 重复给出</translation>
    </message>
    <message>
        <source>evidence of dimension %1 names stage %2 (stages are 1 to 4)</source>
        <translation>维度 %1 的证据指向阶段 %2（阶段为 1 到 4）</translation>
    </message>
    <message>
        <source>evidence of dimension %1 names no run</source>
        <translation>维度 %1 的证据没有指定运行</translation>
    </message>
    <message>
        <source>a cost estimate row needs a category</source>
        <translation>成本估算行需要类别</translation>
    </message>
    <message>
        <source>the cost category %1 is given twice</source>
        <translation>成本类别 %1 重复给出</translation>
    </message>
    <message>
        <source>cannot save the assessment sheet: %1</source>
        <translation>无法保存评估表：%1</translation>
    </message>
    <message>
        <source>evidence of dimension %1 names run %2, which does not exist</source>
        <translation>维度 %1 的证据指向运行 %2，但该运行不存在</translation>
    </message>
    <message>
        <source>cannot save assessment dimension %1: %2</source>
        <translation>无法保存评估维度 %1：%2</translation>
    </message>
    <message>
        <source>cannot save the evidence of dimension %1: %2</source>
        <translation>无法保存维度 %1 的证据：%2</translation>
    </message>
    <message>
        <source>cannot save the cost estimate %1: %2</source>
        <translation>无法保存成本估算 %1：%2</translation>
    </message>
    <message>
        <source>a run needs a name</source>
        <translation>运行需要名称</translation>
    </message>
    <message>
        <source>run %1 belongs to no config record (every run needs one)</source>
        <translation>运行 %1 不属于任何配置记录（每个运行都需要一个）</translation>
    </message>
    <message>
        <source>run %1: a communication sample at %2 bytes per rank has no valid time</source>
        <translation>运行 %1：每个 rank %2 字节的通信样本没有有效耗时</translation>
    </message>
    <message>
        <source>run %1: a metric at step %2 has no name</source>
        <translation>运行 %1：第 %2 步的一个指标没有名称</translation>
    </message>
    <message>
        <source>run %1: the expert load at step %2, layer %3 lists no experts</source>
        <translation>运行 %1：第 %2 步、第 %3 层的专家负载没有列出任何专家</translation>
    </message>
    <message>
        <source>run %1 not saved: %2</source>
        <translation>运行 %1 未保存：%2</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>a run named %1 already exists</source>
        <translation>名为 %1 的运行已存在</translation>
    </message>
    <message>
        <source>no cluster named %1</source>
        <translation>没有名为 %1 的集群</translation>
    </message>
    <message>
        <source>communication sample (%1 bytes per rank, repeat %2, iteration %3): %4</source>
        <translation>通信样本（每个 rank %1 字节，第 %2 次重复，第 %3 次迭代）：%4</translation>
    </message>
    <message>
        <source>metric %1: %2</source>
        <translation>指标 %1：%2</translation>
    </message>
    <message>
        <source>metric %1 at step %2: %3</source>
        <translation>第 %2 步的指标 %1：%3</translation>
    </message>
    <message>
        <source>cannot remove run %1: %2</source>
        <translation>无法删除运行 %1：%2</translation>
    </message>
    <message>
        <source>no run named %1</source>
        <translation>没有名为 %1 的运行</translation>
    </message>
    <message>
        <source>coefficient of variation of time across repeats, per message size</source>
        <translation>各消息大小下，多次重复之间耗时的变异系数</translation>
    </message>
    <message>
        <source>P99 latency over median latency, per message size</source>
        <translation>各消息大小下，P99 延迟与中位延迟之比</translation>
    </message>
    <message>
        <source>expert load max/mean per layer and step</source>
        <translation>每层每步的专家负载 max/mean</translation>
    </message>
    <message>
        <source>fraction of a window&apos;s steps above the load ratio limit that stops stage 3</source>
        <translation>窗口内负载比超过阶段 3 停止上限的步数占比</translation>
    </message>
    <message>
        <source>fraction of routed tokens dropped (drop policies only)</source>
        <translation>被丢弃的路由 token 占比（仅适用于丢弃策略）</translation>
    </message>
    <message>
        <source>relative difference of the target&apos;s stage 1 baseline from the source&apos;s, per size</source>
        <translation>各消息大小下，目标集群阶段 1 基线与源集群的相对差异</translation>
    </message>
    <message>
        <source>expert index %1 out of range at run %2, step %3, layer %4</source>
        <translation>专家索引 %1 超出范围（运行 %2，第 %3 步，第 %4 层）</translation>
    </message>
    <message>
        <source>cannot update node %1: %2</source>
        <translation>无法更新节点 %1：%2</translation>
    </message>
    <message>
        <source>cluster %1 has no node %2</source>
        <translation>集群 %1 中没有节点 %2</translation>
    </message>
    <message>
        <source>cannot update the nodes of cluster %1: %2</source>
        <translation>无法更新集群 %1 的节点：%2</translation>
    </message>
    <message>
        <source>probe</source>
        <comment>run kind</comment>
        <translation>探针</translation>
    </message>
    <message>
        <source>training</source>
        <comment>run kind</comment>
        <translation>训练</translation>
    </message>
    <message>
        <source>imported</source>
        <comment>run kind</comment>
        <translation>导入</translation>
    </message>
    <message>
        <source>a config record name may be at most %1 characters long; this one has %2</source>
        <translation>配置记录名称最多 %1 个字符；此名称有 %2 个</translation>
    </message>
    <message>
        <source>a run name may be at most %1 characters long; this one has %2</source>
        <translation>运行名称最多 %1 个字符；此名称有 %2 个</translation>
    </message>
    <message>
        <source>a cluster name may be at most %1 characters long; this one has %2</source>
        <translation>集群名称最多 %1 个字符；此名称有 %2 个</translation>
    </message>
    <message>
        <source>the config record name &quot;%1&quot; holds the control character %2 at character %3; names may not hold control characters</source>
        <translation>配置记录名称“%1”在第 %3 个字符处含有控制字符 %2；名称不能含有控制字符</translation>
    </message>
    <message>
        <source>the run name &quot;%1&quot; holds the control character %2 at character %3; names may not hold control characters</source>
        <translation>运行名称“%1”在第 %3 个字符处含有控制字符 %2；名称不能含有控制字符</translation>
    </message>
    <message>
        <source>the cluster name &quot;%1&quot; holds the control character %2 at character %3; names may not hold control characters</source>
        <translation>集群名称“%1”在第 %3 个字符处含有控制字符 %2；名称不能含有控制字符</translation>
    </message>
    <message>
        <source>the project is read-only (its file or folder cannot be written); nothing was changed. Copy it to a writable folder to change it.</source>
        <translation>项目为只读（其文件或所在文件夹不可写）；未做任何更改。如需修改，请将其复制到可写的文件夹。</translation>
    </message>
    <message>
        <source>cannot be created: the folder %1 is read-only</source>
        <translation>无法创建：文件夹 %1 为只读</translation>
    </message>
    <message>
        <source>is read-only and empty: a new project cannot be created there</source>
        <translation>为只读且为空：无法在此创建新项目</translation>
    </message>
    <message>
        <source>is read-only and was written by an older MoE Workbench (schema version %1); copy it to a writable folder so it can be upgraded</source>
        <translation>为只读，且由较旧版本的 MoE Workbench 写入（模式版本 %1）；请将其复制到可写的文件夹以便升级</translation>
    </message>
    <message>
        <source>expert load of layer %1 from step %2 could not be compressed</source>
        <translation>第 %1 层自第 %2 步起的专家负载无法压缩</translation>
    </message>
    <message>
        <source>expert load of layer %1 from step %2: %3</source>
        <translation>第 %1 层自第 %2 步起的专家负载：%3</translation>
    </message>
    <message>
        <source>the expert load at step %1, layer %2 lists no experts</source>
        <translation>第 %1 步、第 %2 层的专家负载没有列出任何专家</translation>
    </message>
    <message>
        <source>the expert load at step %1, layer %2 lists %3 experts (at most 65,536)</source>
        <translation>第 %1 步、第 %2 层的专家负载列出了 %3 个专家（最多 65,536 个）</translation>
    </message>
    <message>
        <source>the expert load at step %1, layer %2 is given twice</source>
        <translation>第 %1 步、第 %2 层的专家负载重复给出</translation>
    </message>
    <message>
        <source>the expert load of layer %1 goes back from step %2 to step %3</source>
        <translation>第 %1 层的专家负载从第 %2 步倒退到第 %3 步</translation>
    </message>
    <message>
        <source>cannot update cluster %1: %2</source>
        <translation>无法更新集群 %1:%2</translation>
    </message>
    <message>
        <source>there is no cluster %1</source>
        <translation>没有集群 %1</translation>
    </message>
    <message>
        <source>cannot remove node %1: %2</source>
        <translation>无法移除节点 %1:%2</translation>
    </message>
    <message numerus="yes">
        <source>cluster %1 is not removed: %n run(s) were measured on it (%2); remove them first</source>
        <translation>
            <numerusform>集群 %1 未移除:有 %n 个运行是在它上面测量的(%2);请先移除这些运行</numerusform>
        </translation>
    </message>
    <message>
        <source>cannot remove cluster %1: %2</source>
        <translation>无法移除集群 %1:%2</translation>
    </message>
    <message>
        <source>cannot remove the runs: %1</source>
        <translation>无法删除这些运行：%1</translation>
    </message>
    <message>
        <source>run %1 not renamed: %2</source>
        <translation>运行 %1 未重命名：%2</translation>
    </message>
    <message>
        <source>run %1 not moved: no config record named %2</source>
        <translation>运行 %1 未移动：没有名为 %2 的配置记录</translation>
    </message>
    <message>
        <source>run %1 not moved: %2</source>
        <translation>运行 %1 未移动：%2</translation>
    </message>
    <message>
        <source>a tag may be at most %1 characters long; &quot;%2&quot; has %3</source>
        <translation>标签最长 %1 个字符；“%2”有 %3 个</translation>
    </message>
    <message>
        <source>the tag &quot;%1&quot; holds a control character; tags may not</source>
        <translation>标签“%1”含有控制字符；标签不能含控制字符</translation>
    </message>
    <message>
        <source>the tags of run %1 were not saved: %2</source>
        <translation>运行 %1 的标签未保存：%2</translation>
    </message>
    <message>
        <source>the expert load of run %1 at step %2, layer %3 cannot be read</source>
        <translation>运行 %1 第 %2 步、第 %3 层的专家负载无法读取</translation>
    </message>
    <message>
        <source>the expert load of run %1, layer %2 from step %3 cannot be read</source>
        <translation>运行 %1 第 %2 层自第 %3 步起的专家负载无法读取</translation>
    </message>
    <message>
        <source>run %1: the step anatomy of rank %2 at step %3 holds a negative or missing time</source>
        <translation>运行 %1：rank %2 在第 %3 步的步骤剖析含有负值或缺失的时间</translation>
    </message>
    <message>
        <source>run %1: an all-to-all call at step %2 holds a negative or missing figure</source>
        <translation>运行 %1：第 %2 步的一次 all-to-all 调用含有负值或缺失的数值</translation>
    </message>
    <message>
        <source>step anatomy of rank %1 at step %2: %3</source>
        <translation>rank %1 在第 %2 步的步骤剖析：%3</translation>
    </message>
    <message>
        <source>all-to-all call at step %1: %2</source>
        <translation>第 %1 步的 all-to-all 调用：%2</translation>
    </message>
    <message>
        <source>an integer</source>
        <translation>整数</translation>
    </message>
    <message>
        <source>a real number</source>
        <translation>实数</translation>
    </message>
    <message>
        <source>text</source>
        <translation>文本</translation>
    </message>
    <message>
        <source>a blob</source>
        <translation>blob</translation>
    </message>
    <message>
        <source>nothing (NULL)</source>
        <translation>空值（NULL）</translation>
    </message>
    <message>
        <source>a number</source>
        <translation>数值</translation>
    </message>
    <message>
        <source>%1: nothing (NULL) where moewb requires a value</source>
        <translation>%1：此处为空值（NULL），而 moewb 要求有值</translation>
    </message>
    <message>
        <source>%1: %2 where moewb stores %3</source>
        <translation>%1：此处为%2，而 moewb 存放的是%3</translation>
    </message>
    <message>
        <source>%1: cannot be read (out of memory)</source>
        <translation>%1：无法读取（内存不足）</translation>
    </message>
    <message>
        <source>%1: text that is not UTF-8</source>
        <translation>%1：文本不是 UTF-8</translation>
    </message>
    <message>
        <source>cannot be written: %1</source>
        <translation>无法写入：%1</translation>
    </message>
    <message>
        <source>row %1 (%2)</source>
        <translation>第 %1 行（%2）</translation>
    </message>
    <message>
        <source>rowid %1</source>
        <translation>rowid %1</translation>
    </message>
    <message>
        <source>after row %1</source>
        <translation>第 %1 行之后</translation>
    </message>
    <message>
        <source>cannot be read: %1; the rest of the table was not read</source>
        <translation>无法读取：%1；表中其余部分未读取</translation>
    </message>
    <message>
        <source>after rowid %1</source>
        <translation>rowid %1 之后</translation>
    </message>
    <message>
        <source>is not a project file</source>
        <translation>不是项目文件</translation>
    </message>
    <message>
        <source>already exists; a clean copy never overwrites a file</source>
        <translation>已存在；干净副本从不覆盖文件</translation>
    </message>
    <message>
        <source>cannot be opened safely: %1</source>
        <translation>无法安全打开：%1</translation>
    </message>
    <message>
        <source>was written by a newer MoE Workbench (schema version %1; this build reads up to %2). Update MoE Workbench to clean it.</source>
        <translation>由较新的 MoE Workbench 写入（schema 版本 %1；此版本最高可读 %2）。请更新 MoE Workbench 后再清理。</translation>
    </message>
    <message>
        <source>cannot be created: %1</source>
        <translation>无法创建：%1</translation>
    </message>
    <message>
        <source>cannot be created: the Qt SQLite driver gives no SQLite handle</source>
        <translation>无法创建：Qt SQLite 驱动未提供 SQLite 句柄</translation>
    </message>
    <message>
        <source>the source has no such table</source>
        <translation>源文件中没有此表</translation>
    </message>
    <message>
        <source>the source has %1 of this name in its place; nothing was read from it</source>
        <translation>源文件中此处是同名的%1；未从中读取任何内容</translation>
    </message>
    <message>
        <source>a view</source>
        <translation>视图</translation>
    </message>
    <message>
        <source>a trigger</source>
        <translation>触发器</translation>
    </message>
    <message>
        <source>an index</source>
        <translation>索引</translation>
    </message>
    <message>
        <source>its definition in the source is not moewb&apos;s; nothing was read from it</source>
        <translation>它在源文件中的定义不是 moewb 的；未从中读取任何内容</translation>
    </message>
    <message>
        <source>was written at schema version %1 but cannot be upgraded: %2</source>
        <translation>已按 schema 版本 %1 写入，但无法升级：%2</translation>
    </message>
    <message>
        <source>cannot be checked: %1</source>
        <translation>无法检查：%1</translation>
    </message>
    <message>
        <source>ran out of memory</source>
        <translation>内存不足</translation>
    </message>
    <message>
        <source>an error on a worker thread</source>
        <translation>工作线程出错</translation>
    </message>
    <message>
        <source>an unexpected error (%1)</source>
        <translation>意外错误（%1）</translation>
    </message>
    <message>
        <source>an unexpected error</source>
        <translation>意外错误</translation>
    </message>
    <message>
        <source>a row of table %1 refers to a missing row of %2</source>
        <translation>表 %1 中有一行引用了 %2 中不存在的行</translation>
    </message>
    <message>
        <source>the step timeline of rank %1 at step %2 holds more than its bound</source>
        <translation>第 %2 步 rank %1 的步时间线超出了上限</translation>
    </message>
    <message>
        <source>the step timeline of rank %1 at step %2 cannot be compressed</source>
        <translation>第 %2 步 rank %1 的步时间线无法压缩</translation>
    </message>
    <message>
        <source>step timeline of rank %1 at step %2: %3</source>
        <translation>第 %2 步 rank %1 的步时间线：%3</translation>
    </message>
    <message>
        <source>no schema version %1</source>
        <translation>没有 schema 版本 %1</translation>
    </message>
    <message>
        <source>a table</source>
        <translation>表</translation>
    </message>
    <message>
        <source>an object of type %1</source>
        <translation>类型为 %1 的对象</translation>
    </message>
    <message>
        <source>table</source>
        <translation>表</translation>
    </message>
    <message>
        <source>index</source>
        <translation>索引</translation>
    </message>
    <message>
        <source>view</source>
        <translation>视图</translation>
    </message>
    <message>
        <source>trigger</source>
        <translation>触发器</translation>
    </message>
    <message>
        <source>cannot build the schema of version %1: %2</source>
        <translation>无法构建版本 %1 的 schema：%2</translation>
    </message>
    <message>
        <source>the %1 %2 with a definition that moewb does not give it</source>
        <translation>%1 %2，其定义不是 moewb 给出的</translation>
    </message>
    <message>
        <source>%1 %2 in place of moewb&apos;s %3 %2</source>
        <translation>%1 %2，占据了 moewb 的%3 %2 的位置</translation>
    </message>
    <message>
        <source>%1 %2 that moewb did not create</source>
        <translation>并非 moewb 创建的%1 %2</translation>
    </message>
    <message>
        <source>no %1 %2 (moewb creates one)</source>
        <translation>缺少%1 %2（moewb 会创建它）</translation>
    </message>
    <message numerus="yes">
        <source>%1 and %n more</source>
        <translation>
            <numerusform>%1 以及另外 %n 项</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 and %2</source>
        <translation>%1 和 %2</translation>
    </message>
    <message>
        <source>this project contains %1; it may have been altered — not opened</source>
        <translation>此项目包含%1；它可能已被篡改——未打开</translation>
    </message>
    <message>
        <source>a step timeline of rank %1 at step %2 is damaged: %3</source>
        <translation>第 %2 步 rank %1 的步时间线已损坏：%3</translation>
    </message>
    <message>
        <source>not a compressed frame</source>
        <translation>不是压缩帧</translation>
    </message>
    <message>
        <source>it claims %1 bytes</source>
        <translation>它声称有 %1 字节</translation>
    </message>
    <message>
        <source>it does not decompress</source>
        <translation>无法解压</translation>
    </message>
    <message>
        <source>unknown layout</source>
        <translation>未知的布局</translation>
    </message>
    <message>
        <source>%1 labels</source>
        <translation>%1 个标签</translation>
    </message>
    <message>
        <source>label %1 is cut</source>
        <translation>标签 %1 被截断</translation>
    </message>
    <message>
        <source>%1 intervals in %2 bytes</source>
        <translation>%2 字节中有 %1 个区间</translation>
    </message>
    <message>
        <source>interval %1 is out of range</source>
        <translation>区间 %1 超出范围</translation>
    </message>
    <message>
        <source>its blob is not one whole zstd frame</source>
        <translation>其数据块不是一个完整的 zstd 帧</translation>
    </message>
    <message>
        <source>its zstd frame does not declare its size</source>
        <translation>其 zstd 帧未声明大小</translation>
    </message>
    <message>
        <source>its zstd frame claims %1 bytes where its shape allows %2 to %3</source>
        <translation>其 zstd 帧声称 %1 字节，而其形状只允许 %2 至 %3 字节</translation>
    </message>
    <message>
        <source>its zstd frame does not inflate to the %1 bytes it claims</source>
        <translation>其 zstd 帧解压后不是它声称的 %1 字节</translation>
    </message>
    <message>
        <source>its steps do not increase</source>
        <translation>其步数不递增</translation>
    </message>
    <message>
        <source>it ends before its last value</source>
        <translation>它在最后一个值之前就结束了</translation>
    </message>
    <message>
        <source>it holds a malformed number</source>
        <translation>它含有格式错误的数字</translation>
    </message>
    <message>
        <source>it holds %1 bytes after its last value</source>
        <translation>它在最后一个值之后还有 %1 字节</translation>
    </message>
    <message>
        <source>its header says %1 steps × %2 experts where its row says %3 × %4</source>
        <translation>其头部写明 %1 步 × %2 个专家，而其行记录为 %3 × %4</translation>
    </message>
    <message>
        <source>its encoding %1 is unknown</source>
        <translation>其编码 %1 未知</translation>
    </message>
    <message>
        <source>its layer %1 is outside 0 to %2</source>
        <translation>其层 %1 不在 0 至 %2 之间</translation>
    </message>
    <message>
        <source>it claims %1 steps (1 to %2)</source>
        <translation>它声称有 %1 步（应为 1 至 %2）</translation>
    </message>
    <message>
        <source>it claims %1 experts (1 to %2)</source>
        <translation>它声称有 %1 个专家（应为 1 至 %2）</translation>
    </message>
    <message>
        <source>expert %1 has an impossible count at step %2</source>
        <translation>专家 %1 在第 %2 步的计数不可能成立</translation>
    </message>
    <message>
        <source>its header holds unknown flags %1</source>
        <translation>其头部含有未知标志 %1</translation>
    </message>
    <message>
        <source>its figures at step %1 are impossible for %2 experts</source>
        <translation>其第 %1 步的数值对 %2 个专家而言不可能成立</translation>
    </message>
    <message>
        <source>expert %1&apos;s total is more than %2 steps can hold</source>
        <translation>专家 %1 的总数超过了 %2 步所能容纳的值</translation>
    </message>
    <message>
        <source>run #%1: %2 rows of its step anatomy hold values no trace can give (a rank, a size or a time out of range) and are left out</source>
        <translation>运行 #%1：其步骤剖析中有 %2 行含有任何追踪都给不出的值（秩、大小或时间超出范围），已略去</translation>
    </message>
    <message>
        <source>the expert load at step %1 names layer %2 (layers are 0 to %3)</source>
        <translation>第 %1 步的专家负载指向第 %2 层（层号应为 0 至 %3）</translation>
    </message>
    <message>
        <source>its row holds a value that is not a whole number</source>
        <translation>其行含有一个非整数的值</translation>
    </message>
    <message>
        <source>its row&apos;s steps %1–%2 cannot hold %3 steps</source>
        <translation>其行的步数范围 %1–%2 容纳不下 %3 步</translation>
    </message>
    <message>
        <source>its steps %1–%2 are not its row&apos;s</source>
        <translation>其步数 %1–%2 与其行记录不符</translation>
    </message>
    <message>
        <source>the expert load of layer %1, steps %2–%3 cannot be read: %4</source>
        <translation>第 %1 层第 %2–%3 步的专家负载无法读取：%4</translation>
    </message>
    <message>
        <source>the load summary of layer %1, steps %2–%3 cannot be read: %4</source>
        <translation>第 %1 层第 %2–%3 步的负载摘要无法读取：%4</translation>
    </message>
    <message>
        <source>the expert totals of layer %1, steps %2–%3 cannot be read: %4</source>
        <translation>第 %1 层第 %2–%3 步的专家总数无法读取：%4</translation>
    </message>
    <message>
        <source>the expert load cannot be read: %1</source>
        <translation>专家负载无法读取：%1</translation>
    </message>
    <message>
        <source>it inflates to %1 KiB from %2 bytes, more than %3 times, and this project has already read its %4 MiB of such data (a decompression bomb?)</source>
        <translation>它从 %2 字节解压为 %1 KiB，超过 %3 倍，而本项目已读取了此类数据的 %4 MiB 上限（解压炸弹？）</translation>
    </message>
    <message>
        <source>it would inflate to %1 KiB from %2 bytes, more than %3 times, and this project has already inflated its %4 GiB of such data (a decompression bomb?)</source>
        <translation>它将从 %2 字节解压为 %1 KiB，超过 %3 倍，而本项目已解压了此类数据的 %4 GiB 上限（解压炸弹？）</translation>
    </message>
    <message>
        <source>its expert-parallel size %1 is outside 1 to %2</source>
        <translation>其专家并行规模 %1 不在 1 至 %2 之间</translation>
    </message>
    <message>
        <source>it is missing (its totals row is there)</source>
        <translation>它缺失了（其总数行仍在）</translation>
    </message>
    <message>
        <source>its tokens per expert add up to more than 2^64 − 1</source>
        <translation>其每个专家的令牌数之和超过 2^64 − 1</translation>
    </message>
</context>
</TS>
