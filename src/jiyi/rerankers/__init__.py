"""jiyi.rerankers"""
