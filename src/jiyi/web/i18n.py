"""The panel's words, Chinese first, English one click away.

One flat dict per language; a key missing in English falls back to Chinese (a test
checks that both have the same keys). ``{name}`` placeholders are filled by
``translate``.
"""

from __future__ import annotations

from typing import Any

LANGS = ("zh", "en")
DEFAULT = "zh"
KIND_ORDER = ("fact", "preference", "event", "relation", "episode", "summary", "behavior")

ZH: dict[str, str] = {
    "app.name": "记忆 jiyi",
    "nav.label": "主导航", "nav.skip": "跳到正文", "nav.users": "用户", "nav.memories": "记忆",
    "nav.timeline": "时间线", "nav.graph": "实体图", "nav.debug": "召回调试", "nav.stats": "统计",
    "nav.signout": "退出", "nav.lang": "English", "nav.lang_label": "切换到英文",
    "who.operator": "运维 · 租户 {tenant}", "who.user": "用户 {user}", "who.viewing": "正在查看用户",
    "login.title": "登录", "login.intro": "用租户的 API 密钥登录（`jiyi keys create --tenant 名称` 生成）。",
    "login.key": "API 密钥", "login.submit": "登录", "login.bad_key": "密钥无效或已吊销。",
    "login.open": "服务未启用认证（--insecure-no-auth），将以默认租户进入。", "login.enter": "进入",
    "users.title": "用户", "users.search": "查找用户", "users.none": "这个租户还没有任何记忆。",
    "users.user": "用户", "users.active": "有效记忆", "users.total": "全部", "users.open": "打开",
    "users.pick": "用户 ID", "users.go": "查看",
    "mem.title": "记忆", "mem.caption": "{user} 的记忆", "mem.search": "搜索内容", "mem.kind": "类型",
    "mem.status": "状态", "mem.sensitive": "敏感", "mem.since": "记录于（起）", "mem.until": "记录于（止）",
    "mem.per_page": "每页", "mem.filter": "筛选", "mem.reset": "清除筛选", "mem.all": "全部",
    "mem.sens.only": "只看敏感", "mem.sens.hide": "隐藏敏感", "mem.content": "内容", "mem.when": "时间",
    "mem.actions": "操作", "mem.select": "选择", "mem.select_all": "全选本页", "mem.edit": "编辑",
    "mem.save": "保存", "mem.cancel": "取消", "mem.delete": "删除", "mem.restore": "恢复", "mem.details": "详情",
    "mem.delete_selected": "删除所选", "mem.export": "导出 JSONL", "mem.forget": "忘记我",
    "mem.forget_user": "忘记此用户", "mem.none": "没有符合条件的记忆。", "mem.count": "符合 {n} 条",
    "mem.page": "第 {page} / {pages} 页", "mem.prev": "上一页", "mem.next": "下一页",
    "mem.pager": "翻页", "mem.sensitive_badge": "敏感", "mem.edit_label": "修改内容",
    "done.updated": "已保存修改。", "done.deleted": "已删除（可恢复）。", "done.restored": "已恢复。",
    "done.deleted_many": "已删除 {n} 条（可恢复）。",
    "detail.title": "记忆详情", "detail.fields": "字段", "detail.history": "变更历史", "detail.back": "返回列表",
    "detail.was": "之前", "detail.now": "现在", "detail.event": "事件", "detail.at": "时间",
    "detail.old": "原内容", "detail.new": "新内容", "detail.reason": "原因", "detail.actor": "操作者",
    "detail.related": "相关记忆", "detail.superseded_by": "已被替代为",
    "field.id": "ID", "field.kind": "类型", "field.status": "状态", "field.slot": "槽位",
    "field.entities": "实体", "field.importance": "重要性", "field.confidence": "置信度",
    "field.valid_from": "生效于", "field.valid_until": "失效于", "field.expires_at": "过期于",
    "field.created_at": "记录于", "field.updated_at": "更新于", "field.visibility": "可见性",
    "field.hit_count": "命中次数", "field.last_hit_at": "最近命中", "field.source_ids": "来源消息",
    "field.session_id": "会话",
    "kind.fact": "事实", "kind.preference": "偏好", "kind.event": "事件", "kind.relation": "人际",
    "kind.episode": "对话", "kind.summary": "摘要", "kind.behavior": "习惯",
    "status.active": "有效", "status.superseded": "已替代", "status.merged": "已合并", "status.expired": "已过期",
    "status.deleted": "已删除", "status.archived": "已归档",
    "vis.normal": "普通", "vis.sensitive": "敏感", "vis.secret": "机密",
    "forget.title": "忘记我", "forget.warning": "这会永久删除 {user} 的全部 {n} 条记忆、向量、历史和待处理消息，无法撤销。",
    "forget.hint": "如果只想保留一份副本，请先导出。", "forget.confirm": "我明白，这无法撤销",
    "forget.submit": "永久删除全部记忆", "forget.need_confirm": "请先勾选确认框。",
    "forget.done": "已忘记。删除了 {n} 条记忆。", "forget.done_user": "关于你的记忆已全部删除，本链接也已退出。",
    "tl.title": "时间线", "tl.axis": "时间轴：每个点是一条记忆", "tl.show_deleted": "显示已删除和已合并",
    "tl.apply": "应用", "tl.none": "还没有可显示的记忆。", "tl.was": "曾经", "tl.now": "现在",
    "tl.greyed": "已过去或失效",
    "graph.title": "实体图", "graph.canvas": "实体与提及它们的记忆之间的关系图", "graph.inactive": "包括非有效记忆",
    "graph.list": "实体列表", "graph.none": "还没有实体。", "graph.mentions": "{n} 条记忆",
    "ent.person": "人物", "ent.place": "地点", "ent.org": "机构", "ent.number": "号码", "ent.thing": "事物",
    "graph.legend": "图例", "graph.memory": "记忆",
    "dbg.title": "召回调试", "dbg.message": "输入一条消息", "dbg.budget": "上下文预算（token）",
    "dbg.limit": "返回条数", "dbg.sensitive": "允许敏感记忆", "dbg.run": "运行召回",
    "dbg.query": "查询分析", "dbg.tokens": "分词", "dbg.names": "名称", "dbg.spans": "时间表达",
    "dbg.wants_sensitive": "询问敏感信息", "dbg.routes": "各路候选", "dbg.route": "路线",
    "dbg.rerank": "重排序", "dbg.rerank_sent": "送审 {n} 条", "dbg.rerank_cached": "缓存命中",
    "dbg.rerank_failed": "重排序失败，保持融合顺序：{reason}",
    "dbg.rank": "名次", "dbg.score": "分数", "dbg.chosen": "入选", "dbg.hits": "最终结果与分数组成",
    "dbg.total": "总分", "dbg.context": "build_context 注入内容", "dbg.context_tokens": "{used} / {budget} token",
    "dbg.empty": "（空：没有可注入的记忆）", "dbg.timings": "耗时（毫秒）", "dbg.none": "无候选",
    "dbg.note": "调试查询和真实查询一样会计入命中次数。", "dbg.missing": "（已不可见）",
    "yes": "是", "no": "否",
    "stats.title": "统计", "stats.users": "用户数", "stats.total": "记忆总数", "stats.by": "按类型和状态",
    "stats.kind": "类型", "stats.sum": "合计", "stats.growth": "近 {days} 天新增", "stats.growth_desc":
    "每天新增记忆数（柱），悬停查看累计总数", "stats.queue": "写入队列", "stats.pending": "待处理任务",
    "stats.failed": "失败任务", "stats.worker_errors": "后台错误", "stats.gc": "gc 预演（不会改动数据）",
    "stats.gc_run": "运行 gc 预演", "stats.gc_rule": "规则", "stats.gc_count": "将影响", "stats.gc_none":
    "当前没有需要清理的记忆。", "stats.day": "{day}：新增 {added}，累计 {total}",
    "stats.added": "每日新增", "stats.running": "累计（单独刻度）",
    "err.title": "出错了", "err.csrf": "请求未通过 CSRF 校验。请刷新页面后重试。",
    "err.signin": "请先登录。", "err.other_user": "你无权查看其他用户的记忆。",
    "err.operators_only": "只有运维可以查看此页面。", "err.pick_user": "请先选择一个用户。",
    "err.link_invalid": "链接无效或已过期，请向机器人重新索取。", "err.not_found": "找不到这条记忆。",
    "err.invalid": "输入有误。", "err.internal": "服务器内部错误，详情见服务日志。", "err.home": "返回首页",
}

EN: dict[str, str] = {
    "app.name": "jiyi 记忆",
    "nav.label": "Main", "nav.skip": "Skip to content", "nav.users": "Users", "nav.memories": "Memories",
    "nav.timeline": "Timeline", "nav.graph": "Entity graph", "nav.debug": "Recall debugger", "nav.stats": "Stats",
    "nav.signout": "Sign out", "nav.lang": "中文", "nav.lang_label": "Switch to Chinese",
    "who.operator": "Operator · tenant {tenant}", "who.user": "User {user}", "who.viewing": "Viewing user",
    "login.title": "Sign in", "login.intro": "Sign in with a tenant API key (made by `jiyi keys create --tenant NAME`).",
    "login.key": "API key", "login.submit": "Sign in", "login.bad_key": "Invalid or revoked key.",
    "login.open": "Authentication is off (--insecure-no-auth): you enter as the default tenant.", "login.enter": "Enter",
    "users.title": "Users", "users.search": "Find a user", "users.none": "This tenant has no memories yet.",
    "users.user": "User", "users.active": "Active", "users.total": "All", "users.open": "Open",
    "users.pick": "User id", "users.go": "View",
    "mem.title": "Memories", "mem.caption": "Memories of {user}", "mem.search": "Search text", "mem.kind": "Kind",
    "mem.status": "Status", "mem.sensitive": "Sensitive", "mem.since": "Recorded from", "mem.until": "Recorded to",
    "mem.per_page": "Per page", "mem.filter": "Filter", "mem.reset": "Clear filters", "mem.all": "All",
    "mem.sens.only": "Only sensitive", "mem.sens.hide": "Hide sensitive", "mem.content": "Content", "mem.when": "When",
    "mem.actions": "Actions", "mem.select": "Select", "mem.select_all": "Select page", "mem.edit": "Edit",
    "mem.save": "Save", "mem.cancel": "Cancel", "mem.delete": "Delete", "mem.restore": "Restore",
    "mem.details": "Details",
    "mem.delete_selected": "Delete selected", "mem.export": "Export JSONL", "mem.forget": "Forget me",
    "mem.forget_user": "Forget this user", "mem.none": "No memories match.", "mem.count": "{n} match",
    "mem.page": "Page {page} of {pages}", "mem.prev": "Previous", "mem.next": "Next",
    "mem.pager": "Pages", "mem.sensitive_badge": "sensitive", "mem.edit_label": "New content",
    "done.updated": "Saved.", "done.deleted": "Deleted (can be restored).", "done.restored": "Restored.",
    "done.deleted_many": "Deleted {n} (can be restored).",
    "detail.title": "Memory", "detail.fields": "Fields", "detail.history": "History", "detail.back": "Back to the list",
    "detail.was": "Was", "detail.now": "Now", "detail.event": "Event", "detail.at": "At",
    "detail.old": "Old", "detail.new": "New", "detail.reason": "Reason", "detail.actor": "By",
    "detail.related": "Related memories", "detail.superseded_by": "Superseded by",
    "field.id": "ID", "field.kind": "Kind", "field.status": "Status", "field.slot": "Slot",
    "field.entities": "Entities", "field.importance": "Importance", "field.confidence": "Confidence",
    "field.valid_from": "Valid from", "field.valid_until": "Valid until", "field.expires_at": "Expires",
    "field.created_at": "Recorded", "field.updated_at": "Updated", "field.visibility": "Visibility",
    "field.hit_count": "Hits", "field.last_hit_at": "Last hit", "field.source_ids": "Source messages",
    "field.session_id": "Session",
    "kind.fact": "fact", "kind.preference": "preference", "kind.event": "event", "kind.relation": "relation",
    "kind.episode": "episode", "kind.summary": "summary", "kind.behavior": "behavior",
    "status.active": "active", "status.superseded": "superseded", "status.merged": "merged",
    "status.expired": "expired", "status.deleted": "deleted", "status.archived": "archived",
    "vis.normal": "normal", "vis.sensitive": "sensitive", "vis.secret": "secret",
    "forget.title": "Forget me", "forget.warning": "This permanently deletes all {n} memories of {user}, with their "
    "vectors, history and pending messages. It cannot be undone.",
    "forget.hint": "Export first if you want to keep a copy.", "forget.confirm": "I understand this cannot be undone",
    "forget.submit": "Delete everything for good", "forget.need_confirm": "Tick the confirmation box first.",
    "forget.done": "Forgotten. {n} memories deleted.", "forget.done_user": "Everything remembered about you is "
    "deleted, and this link is signed out.",
    "tl.title": "Timeline", "tl.axis": "Time axis: each dot is a memory", "tl.show_deleted": "Show deleted and merged",
    "tl.apply": "Apply", "tl.none": "Nothing to show yet.", "tl.was": "was", "tl.now": "now",
    "tl.greyed": "past or no longer valid",
    "graph.title": "Entity graph", "graph.canvas": "Graph of entities and the memories that mention them",
    "graph.inactive": "Include inactive memories", "graph.list": "Entities", "graph.none": "No entities yet.",
    "graph.mentions": "{n} memories",
    "ent.person": "person", "ent.place": "place", "ent.org": "organisation", "ent.number": "number",
    "ent.thing": "thing", "graph.legend": "Legend", "graph.memory": "memory",
    "dbg.title": "Recall debugger", "dbg.message": "Type a message", "dbg.budget": "Context budget (tokens)",
    "dbg.limit": "Results", "dbg.sensitive": "Allow sensitive memories", "dbg.run": "Run recall",
    "dbg.query": "Query analysis", "dbg.tokens": "Tokens", "dbg.names": "Names", "dbg.spans": "Time expressions",
    "dbg.wants_sensitive": "Asks for sensitive data", "dbg.routes": "Candidates by route", "dbg.route": "Route",
    "dbg.rerank": "Reranker", "dbg.rerank_sent": "{n} candidates sent", "dbg.rerank_cached": "cached",
    "dbg.rerank_failed": "The reranker failed; the fused order was kept: {reason}",
    "dbg.rank": "Rank", "dbg.score": "Score", "dbg.chosen": "Chosen", "dbg.hits": "Final hits and score parts",
    "dbg.total": "Score", "dbg.context": "What build_context injects", "dbg.context_tokens": "{used} / {budget} tokens",
    "dbg.empty": "(empty: nothing to inject)", "dbg.timings": "Time (ms)", "dbg.none": "no candidates",
    "dbg.note": "Debugger queries count as hits, like real ones.", "dbg.missing": "(no longer visible)",
    "yes": "yes", "no": "no",
    "stats.title": "Stats", "stats.users": "Users", "stats.total": "Memories", "stats.by": "By kind and status",
    "stats.kind": "Kind", "stats.sum": "Total", "stats.growth": "Added in the last {days} days",
    "stats.growth_desc": "Memories added per day (bars); hover for the running total", "stats.queue": "Write queue",
    "stats.pending": "Pending jobs", "stats.failed": "Failed jobs", "stats.worker_errors": "Worker errors",
    "stats.gc": "gc dry run (changes nothing)", "stats.gc_run": "Run gc dry run", "stats.gc_rule": "Rule",
    "stats.gc_count": "Would affect", "stats.gc_none": "Nothing to clean up now.",
    "stats.day": "{day}: {added} added, {total} in all",
    "stats.added": "added per day", "stats.running": "running total (own scale)",
    "err.title": "Something went wrong", "err.csrf": "The request failed the CSRF check. Reload the page and try again.",
    "err.signin": "Please sign in.", "err.other_user": "You may not see another user's memories.",
    "err.operators_only": "Only operators can see this page.", "err.pick_user": "Pick a user first.",
    "err.link_invalid": "This link is invalid or has expired; ask the bot for a new one.",
    "err.not_found": "No such memory.", "err.invalid": "Invalid input.",
    "err.internal": "Internal server error; the server log has the details.", "err.home": "Home",
}

_TABLES = {"zh": ZH, "en": EN}


def pick(value: str | None) -> str:
    """A supported language code (default Chinese)."""
    return value if value in LANGS else DEFAULT


def translate(lang: str, key: str, **values: Any) -> str:
    """The text for ``key``; English falls back to Chinese, an unknown key shows itself."""
    text = _TABLES.get(lang, ZH).get(key) or ZH.get(key) or key
    return text.format(**values) if values else text
